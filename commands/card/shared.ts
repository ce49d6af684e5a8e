import type { Card, CardLanguage } from '../src/cards/card.js';
import type { CardView } from '../src/cards/custom-ids.js';
import { cardLanguageFor } from '../src/cards/user-language.js';
import type { Catalogue } from '../src/i18n/catalogue.js';
import { messagesFor } from '../src/i18n/messages.js';
import type { ChatInputContext, DeferrableContext } from '../src/interaction/context.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError, type LocalizedText } from '../src/interaction/errors.js';
import type { Reply } from '../src/interaction/reply.js';
import { cardDatabaseFailureMessage } from '../src/render/card-database.js';
import { noMatchMessage, renderDidYouMean } from '../src/render/card-menus.js';
import { quoteUserText } from '../src/render/user-text.js';
import type { AppServices } from '../src/app/services.js';

/** What `/card`'s subcommands share: how a typed name becomes a card, in whose words, and the wait for a loading database. */

/** Longest a card name (68 characters today) or a search query may be. */
export const MAX_NAME_CHARS = 100;

/** How an answer is presented: in whose words, and whether Discord lets Almanac attach the art there. */
export interface Presentation {
  messages: Catalogue;
  attachFiles: boolean;
}

/** Almanac's words follow the `language` option when given, else the user's Discord locale. */
export function presentationFor(ctx: Pick<ChatInputContext, 'user' | 'appPermissions'>, languageOption: string | null = null): Presentation {
  return { messages: messagesFor(languageOption ?? ctx.user.locale), attachFiles: ctx.appPermissions.attachFiles };
}

/** Why there are no cards: a failed download (with its next attempt) or a load still under way. */
export function databaseMissing(app: AppServices): LocalizedText {
  const failure = app.cards.loadFailure;
  const now = app.clock.now().getTime();
  return (t) => (failure ? cardDatabaseFailureMessage(failure, now, t) : t.card.databaseLoading);
}

export async function waitForDatabase(ctx: Pick<DeferrableContext, 'defer'>, app: AppServices, ephemeral: boolean): Promise<void> {
  if (app.cards.ready) return;
  // A failed download is not worth waiting for: the next attempt is minutes away.
  if (app.cards.loadFailure) throw new UserError(databaseMissing(app));
  if (!(await deferWhenSlow(ctx, app.cards.whenReady(), { ephemeral }))) throw new UserError(databaseMissing(app));
}

/**
 * The card the `name` option names (an autocomplete passcode or typed words, in the user's language
 * too), or the "Did you mean" menu whose pick opens `view`. Local once the database is loaded;
 * before that, an exact lookup upstream on the member's share.
 */
export async function namedCard(
  ctx: ChatInputContext,
  app: AppServices,
  options: { language: CardLanguage | undefined; explicitLanguage: string | null; view: CardView },
): Promise<{ card: Card } | { choices: Reply }> {
  const input = (ctx.options.getString('name') ?? '').trim();
  if (input === '') throw new UserError((t) => t.card.giveName);
  const { language, explicitLanguage } = options;
  const resolution = await app.cards.resolvePatiently(input, language, {
    share: app.memberShares.spenderFor(ctx.user.id, 'ygoprodeck'),
    pace: (work) => deferWhenSlow(ctx, work, { ephemeral: false }),
  });
  switch (resolution.kind) {
    case 'none':
      throw new UserError((t) => (app.cards.ready ? noMatchMessage(input, t) : `${t.card.notExactly(quoteUserText(input))} ${databaseMissing(app)(t)}`));
    case 'choices':
      return {
        choices: renderDidYouMean(
          input,
          resolution.candidates,
          explicitLanguage === null ? undefined : language,
          app.cards.localNames(resolution.candidates, language),
          presentationFor(ctx, explicitLanguage).messages,
          options.view,
        ),
      };
    case 'card':
      return { card: resolution.card };
  }
}

/** The card language names are matched in for a command without a `language` option: the user's locale's. */
export function localeCardLanguage(ctx: Pick<ChatInputContext, 'user'>): CardLanguage | undefined {
  return cardLanguageFor(null, ctx.user.locale);
}
