import type { Card, StatValue } from '../cards/card.js';
import { mainDeckCards } from './opening-odds.js';

/**
 * Small World: reveal a monster in the hand, pick a monster in the Deck that shares exactly one of
 * Type, Attribute, Level, ATK and DEF with it, then add to the hand a monster of the Deck that shares
 * exactly one of them with that one. The picked monster is the bridge; this finds every bridge the
 * deck's Main Deck holds between a card in the hand and a target.
 */

export const SMALL_WORLD_PROPERTIES = ['race', 'attribute', 'level', 'atk', 'def'] as const;
/** Type (`race` in YGOPRODeck's words), Attribute, Level, ATK, DEF. */
export type SmallWorldProperty = (typeof SMALL_WORLD_PROPERTIES)[number];

/** A monster as Small World compares it. */
export interface SmallWorldMonster {
  card: Card;
  race: string;
  attribute: string;
  level: number;
  atk: number;
  def: number;
}

/** A monster of the Deck that bridges the hand to the target, and what it shares with each. */
export interface SmallWorldBridge {
  bridge: SmallWorldMonster;
  withHand: SmallWorldProperty;
  withTarget: SmallWorldProperty;
}

/** A "?" ATK or DEF counts as 0 outside the field (the game's rule for unknown stats), so it matches a 0. */
function stat(value: StatValue): number {
  return value === '?' ? 0 : value;
}

/**
 * The card as Small World sees it, or undefined for a card it cannot reveal or add: a monster needs a
 * Level (Xyz and Link monsters have none), a Type, an Attribute, ATK and DEF.
 */
export function smallWorldMonster(card: Card): SmallWorldMonster | undefined {
  const { race, attribute, level, atk, def } = card;
  if (card.kind !== 'monster' || race === undefined || attribute === undefined || level === undefined || atk === undefined || def === undefined) return undefined;
  return { card, race, attribute, level, atk: stat(atk), def: stat(def) };
}

/** The properties `a` and `b` share, in SMALL_WORLD_PROPERTIES' order. */
export function sharedProperties(a: SmallWorldMonster, b: SmallWorldMonster): SmallWorldProperty[] {
  return SMALL_WORLD_PROPERTIES.filter((property) => a[property] === b[property]);
}

/** The one property `a` and `b` share, or undefined when they share none or more than one. */
function onlySharedProperty(a: SmallWorldMonster, b: SmallWorldMonster): SmallWorldProperty | undefined {
  const shared = sharedProperties(a, b);
  return shared.length === 1 ? shared[0] : undefined;
}

/** The monsters of `deck` (distinct, in its order) that bridge `hand` to `target`. */
export function smallWorldBridges(hand: SmallWorldMonster, target: SmallWorldMonster, deck: readonly SmallWorldMonster[]): SmallWorldBridge[] {
  return deck.flatMap((bridge) => {
    const withHand = onlySharedProperty(hand, bridge);
    const withTarget = withHand === undefined ? undefined : onlySharedProperty(bridge, target);
    return withHand === undefined || withTarget === undefined ? [] : [{ bridge, withHand, withTarget }];
  });
}

/** The Main Deck's distinct monsters Small World can use (`mainDeckCards`' order: first copy first). */
export function smallWorldDeck(main: readonly number[], cardOf: (password: number) => Card | undefined): SmallWorldMonster[] {
  return mainDeckCards(main, cardOf).flatMap((entry) => {
    const monster = entry.card === undefined ? undefined : smallWorldMonster(entry.card);
    return monster === undefined ? [] : [monster];
  });
}
