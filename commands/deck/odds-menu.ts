import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { applyPick, type OddsAction } from '../../src/decks/odds-custom-ids.js';
import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { renderOdds } from '../../src/render/deck-odds.js';
import { menuDeck, oddsCards, oddsNames } from './shared.js';

/**
 * The **Opening odds** button under a shown deck (the menus, in a reply only the presser sees) and
 * its two menus (the marks applied, the odds in place). Only the member who showed the deck, or asked
 * for its odds, may use them; the deck is read back from the store its key names.
 */
export async function answerOdds(ctx: ComponentContext, app: AppServices, action: OddsAction): Promise<ComponentResult> {
  const t = messagesFor(ctx.user.locale);
  const deck = await menuDeck(ctx, app, action.key, t.deck.odds);
  if ('refusal' in deck) return deck.refusal;
  const cards = oddsCards(deck.main, app);
  const picks = action.action === 'open' ? { key: action.key, startersPage: 0, neededPage: 0, starters: [], needed: [] } : applyPick(action, ctx.values, cards.length);
  const payload = renderOdds({ cards, picks, localNames: oddsNames(ctx, app, cards), messages: t });
  return action.action === 'open' ? { reply: { ...payload, ephemeral: true } } : { update: payload };
}
