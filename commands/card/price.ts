import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { ChatInputContext, ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor, turnedPage } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { namedCard, pricesReply } from './shared.js';

/**
 * `/card price name`: a card's prices, per vendor and every printing cheapest first, paged with ◀ ▶.
 * Local only: never a request once the database is loaded.
 */
export async function price(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const named = await namedCard(ctx, app, { language: cardLanguageFor(null, ctx.settings.publicLocale), explicitLanguage: null, view: 'price' });
  return 'choices' in named ? named.choices : pricesReply(app, named.card, 0, presentationFor(ctx));
}

/** ◀ ▶ under `/card price`. */
export function turnPricePage(ctx: ComponentContext, app: AppServices, cardId: number, page: number): ComponentResult {
  const card = app.cards.byId(cardId);
  if (card === undefined) throw new UserError((t) => t.card.cardGone);
  return turnedPage(ctx, pricesReply(app, card, page, presentationFor(ctx)));
}
