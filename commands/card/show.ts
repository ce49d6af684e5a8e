import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { presentationFor } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { cardReply, namedCard } from './shared.js';

/** `/card show name [language]`: one card, in the `language` asked or the user's, its art attached. */
export async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const explicitLanguage = ctx.options.getString('language');
  const language = cardLanguageFor(explicitLanguage, ctx.settings.publicLocale);
  const named = await namedCard(ctx, app, { language, explicitLanguage, view: 'show' });
  if ('choices' in named) return named.choices;
  return deferWhenSlow(ctx, cardReply(app, named.card, language, ctx, presentationFor(ctx, explicitLanguage)), { ephemeral: false });
}
