import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { ChatInputContext, ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor, turnedPage, updateDeferral } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { artworkReply, namedCard } from './shared.js';

/** `/card art name`: every artwork of a card, one at a time with ◀ ▶, attached. */
export async function art(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const named = await namedCard(ctx, app, { language: cardLanguageFor(null, ctx.settings.publicLocale), explicitLanguage: null, view: 'art' });
  if ('choices' in named) return named.choices;
  return deferWhenSlow(ctx, artworkReply(app, ctx.user.id, named.card, 0, presentationFor(ctx)), { ephemeral: false });
}

/** ◀ ▶ under `/card art`: the artwork `index`, downloaded on the presser's share when not stored. */
export async function turnArtPage(ctx: ComponentContext, app: AppServices, cardId: number, index: number): Promise<ComponentResult> {
  const card = app.cards.byId(cardId);
  if (card === undefined) throw new UserError((t) => t.card.cardGone);
  return turnedPage(ctx, await deferWhenSlow(updateDeferral(ctx), artworkReply(app, ctx.user.id, card, index, presentationFor(ctx)), { ephemeral: false }));
}
