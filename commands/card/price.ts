import type { Card } from '../src/cards/card.js';
import { printingsByPrice } from '../src/cards/printings.js';
import type { ChatInputContext, ComponentContext, ComponentResult } from '../src/interaction/context.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError } from '../src/interaction/errors.js';
import type { Reply } from '../src/interaction/reply.js';
import { artworkWindow, renderArtwork } from '../src/render/card-art.js';
import { renderPrices } from '../src/render/card-prices.js';
import type { AppServices } from '../src/app/services.js';
import { localeCardLanguage, namedCard, presentationFor, type Presentation } from './card-common.js';

/**
 * `/card price` and `/card art`: a card's prices (per vendor, and every printing cheapest first) and
 * its artworks, each paged with ◀ ▶. Whoever ran the command turns the pages in place; anyone else
 * pressing them gets the page in a reply of their own.
 */

/** The card's prices, page `page` of its printings: local only, never a request. */
export function pricesReply(app: AppServices, card: Card, page: number, presentation: Presentation): Reply {
  return renderPrices({ card, printings: printingsByPrice(card), page, pricesAsOf: app.cards.pricesAsOf, messages: presentation.messages });
}

/** The card's artwork `index`, attached where Discord allows it (else not even fetched); its download is spent from the member's share. */
export async function artworkReply(app: AppServices, userId: string, card: Card, index: number, presentation: Presentation): Promise<Reply> {
  const shown = artworkWindow(card, index).index;
  const image = presentation.attachFiles ? await app.cards.artwork(card, shown, app.memberShares.spenderFor(userId, 'ygoprodeck')) : null;
  return renderArtwork({ card, index: shown, image, messages: presentation.messages, ...(presentation.attachFiles ? {} : { artNotAttachable: true }) });
}

export async function price(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const named = await namedCard(ctx, app, { language: localeCardLanguage(ctx), explicitLanguage: null, view: 'price' });
  return 'choices' in named ? named.choices : pricesReply(app, named.card, 0, presentationFor(ctx));
}

export async function art(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const named = await namedCard(ctx, app, { language: localeCardLanguage(ctx), explicitLanguage: null, view: 'art' });
  if ('choices' in named) return named.choices;
  return deferWhenSlow(ctx, artworkReply(app, ctx.user.id, named.card, 0, presentationFor(ctx)), { ephemeral: false });
}

/** ◀ ▶ under `/card price` or `/card art`. */
export async function turnCardPage(ctx: ComponentContext, app: AppServices, view: 'price' | 'art', cardId: number, page: number): Promise<ComponentResult> {
  const card = app.cards.byId(cardId);
  if (card === undefined) throw new UserError((t) => t.card.cardGone);
  const presentation = presentationFor(ctx);
  const reply =
    view === 'price'
      ? pricesReply(app, card, page, presentation)
      : await deferWhenSlow({ defer: () => ctx.deferUpdate() }, artworkReply(app, ctx.user.id, card, page, presentation), { ephemeral: false });
  return ctx.message.ownerId === ctx.user.id ? { update: reply } : { reply: { ...reply, ephemeral: true } };
}
