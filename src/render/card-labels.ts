import type { BanlistFormat, CardLanguage, LinkMarker, PriceSource } from '../cards/card.js';

/** How card facts are named and coloured, whatever the language of the rest of the answer. */

/** YGOPRODeck's frame types, grouped into the colours of the physical card frames. */
export const FRAME_COLOURS = {
  normal: 0xfde68a,
  effect: 0xff8b53,
  ritual: 0x9db5cc,
  fusion: 0xa086b7,
  synchro: 0xf2f2f2,
  // Colour 0 means "no colour" to Discord, so the black Xyz frame is a very dark grey.
  xyz: 0x1f1f1f,
  link: 0x00449e,
  pendulum: 0x40b5a0,
  spell: 0x1d9e74,
  trap: 0xbc5a84,
  token: 0xa0a0a0,
  skill: 0x2f73b7,
} as const;
type FrameColour = keyof typeof FRAME_COLOURS;
const UNKNOWN_FRAME_COLOUR = 0x99aab5;

/** The colour family of a frame type: every `*_pendulum` frame is a Pendulum frame. */
export function frameColourOf(frameType: string): FrameColour | null {
  if (frameType.endsWith('_pendulum')) return 'pendulum';
  return frameType in FRAME_COLOURS ? (frameType as FrameColour) : null;
}

export function frameColour(frameType: string): number {
  const family = frameColourOf(frameType);
  return family === null ? UNKNOWN_FRAME_COLOUR : FRAME_COLOURS[family];
}

export const LANGUAGE_NAMES: Readonly<Record<CardLanguage, string>> = {
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  pt: 'Português',
};

export const BANLIST_LABELS: Readonly<Record<BanlistFormat, string>> = { tcg: 'TCG', ocg: 'OCG', goat: 'GOAT', masterduel: 'Master Duel' };

/** Price sources and their currencies: Cardmarket prices are euros, the American shops' dollars. */
export const PRICE_SOURCE_LABELS: Readonly<Record<PriceSource, { name: string; currency: 'USD' | 'EUR' }>> = {
  tcgplayer: { name: 'TCGplayer', currency: 'USD' },
  cardmarket: { name: 'Cardmarket', currency: 'EUR' },
  ebay: { name: 'eBay', currency: 'USD' },
  amazon: { name: 'Amazon', currency: 'USD' },
  coolstuffinc: { name: 'CoolStuffInc', currency: 'USD' },
};

/** Arrows in reading order (top row, middle row, bottom row), whatever order upstream lists them in. */
export const LINK_ARROWS: readonly (readonly [LinkMarker, string])[] = [
  ['Top-Left', '↖'],
  ['Top', '↑'],
  ['Top-Right', '↗'],
  ['Left', '←'],
  ['Right', '→'],
  ['Bottom-Left', '↙'],
  ['Bottom', '↓'],
  ['Bottom-Right', '↘'],
];
