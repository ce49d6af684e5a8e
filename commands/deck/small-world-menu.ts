import type { AppServices } from '../../src/app/services.js';
import type { Card } from '../../src/cards/card.js';
import { cardLanguageFor } from '../../src/cards/user-language.js';
import { MAX_MENU_CARDS } from '../../src/decks/card-menu-pages.js';
import { smallWorldDeck } from '../../src/decks/small-world.js';
import { applySmallWorldChoice, type SmallWorldAction } from '../../src/decks/small-world-custom-ids.js';
import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { renderSmallWorld } from '../../src/render/deck-small-world.js';
import { menuDeck } from './shared.js';

/**
 * The **Small World** button under a shown deck (the menus, in a reply only the presser sees) and its
 * two menus (the pick applied, the bridges in place). Only the member who showed the deck may use
 * them; the deck is read back from the store its key names, as for Opening odds.
 */
export async function answerSmallWorld(ctx: ComponentContext, app: AppServices, action: SmallWorldAction): Promise<ComponentResult> {
  const t = messagesFor(ctx.user.locale);
  const deck = await menuDeck(ctx, app, action.key, t.deck.smallWorld);
  if ('refusal' in deck) return deck.refusal;
  const monsters = smallWorldDeck(deck.main, (password) => app.cards.byId(password));
  if (monsters.length === 0) return privateAnswer(t.deck.smallWorld.noMonsters);
  if (monsters.length > MAX_MENU_CARDS) return privateAnswer(t.deck.smallWorld.tooMany);
  const choices = action.action === 'open' ? { key: action.key, handPage: 0, targetPage: 0, hand: null, target: null } : applySmallWorldChoice(action, ctx.values, monsters.length);
  const localNames = app.cards.localNames(
    monsters.map((monster): Card => monster.card),
    cardLanguageFor(null, ctx.user.locale),
  );
  const payload = renderSmallWorld({ monsters, choices, localNames, messages: t });
  return action.action === 'open' ? { reply: { ...payload, ephemeral: true } } : { update: payload };
}
