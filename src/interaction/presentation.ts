import type { Catalogue } from '../i18n/catalogue.js';
import { messagesFor } from '../i18n/messages.js';
import type { AppPermissions, ComponentContext, ComponentResult, PlaceSettings } from './context.js';
import type { Reply } from './reply.js';

/** How commands present an answer, whatever the command: in whose words, where, and to whom. */

/** In whose words an answer is, and whether Discord lets the app attach files where it is shown. */
export interface Presentation {
  messages: Catalogue;
  attachFiles: boolean;
}

/**
 * A public answer's words: a command's `language` option when given, else the language `/settings`
 * chose for the place (which falls back to the member's own).
 */
export function presentationFor(ctx: { settings: PlaceSettings; appPermissions: AppPermissions }, languageOption: string | null = null): Presentation {
  return { messages: messagesFor(languageOption ?? ctx.settings.publicLocale), attachFiles: ctx.appPermissions.attachFiles };
}

/**
 * A page turned by a button (◀ ▶): whoever ran the command turns it in place; anyone else pressing
 * gets the page in a reply only they see.
 */
export function turnedPage(ctx: Pick<ComponentContext, 'user' | 'message'>, page: Reply): ComponentResult {
  return ctx.message.ownerId === ctx.user.id ? { update: page } : { reply: { ...page, ephemeral: true } };
}

/** A short answer to a press that only the presser sees; the message pressed on stays as it is. */
export function privateAnswer(content: string): ComponentResult {
  return { reply: { content, ephemeral: true } };
}

/** What a component's work defers to when slow: the message it sits on, updated in place later. */
export function updateDeferral(ctx: Pick<ComponentContext, 'deferUpdate'>): { defer(): Promise<void> } {
  return { defer: () => ctx.deferUpdate() };
}
