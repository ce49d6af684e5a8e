import { vi } from 'vitest';
import { GenesysPool } from '../../src/cards/genesys.js';
import { en } from '../../src/i18n/en.js';
import type { Reply } from '../../src/interaction/reply.js';
import { toYdke } from '../../src/decks/ydke.js';
import { dumpCard, stubServices } from './command-contexts.js';

/** A small deck and services that show it: Dark Magician ×3, one card unknown, and a picture drawn at once. */

export const DARK_MAGICIAN = dumpCard(46986414);
export const DECK = { main: [DARK_MAGICIAN.id, DARK_MAGICIAN.id, DARK_MAGICIAN.id, 12345], extra: [], side: [] };
export const DECK_URL = toYdke(DECK);
export const YDK = `#created by test\n#main\n${DARK_MAGICIAN.id}\n!side\n`;
export const PICTURE = Buffer.from('deck picture');

/** A Genesys pool where Dark Magician costs 10 points: the DECK's three copies total 30. */
export const GENESYS_POOL = new GenesysPool([{ id: DARK_MAGICIAN.id, name: DARK_MAGICIAN.name, points: 10 }]);

/** The legality field of a shown deck's embed. */
export function legalityOf(reply: Reply): string {
  return reply.embeds?.[0]?.fields?.find((field) => field.name === en.deck.legality)?.value ?? '';
}

export function deckServices(options: { pending?: number[]; read?: unknown; ready?: boolean } = {}) {
  const draw = vi.fn(async () => PICTURE);
  const complete = vi.fn(async () => new Map());
  const read = vi.fn(async () => options.read ?? { ok: true, bytes: Buffer.from(YDK) });
  // The fleet's text store, where a shown deck's Main Deck waits for its Opening odds.
  const texts = new Map<string, string>();
  const longQueries = {
    remember: vi.fn(async (text: string) => {
      const key = `k${String(texts.size).padStart(9, '0')}`;
      texts.set(key, text);
      return key;
    }),
    recall: vi.fn(async (key: string) => texts.get(key)),
  };
  const app = stubServices({
    cards: {
      ready: options.ready ?? true,
      loadFailure: null,
      waitForDatabase: async () => options.ready ?? true,
      byId: (id: number) => (id === DARK_MAGICIAN.id ? DARK_MAGICIAN : id >= 1 && id <= 70 ? { ...DARK_MAGICIAN, id, name: `Card ${id}` } : undefined),
      localNames: () => new Map(),
      pricesAsOf: null,
      genesysPool: () => GENESYS_POOL,
    },
    deckArt: { gather: vi.fn(async () => ({ art: new Map(), pending: options.pending ?? [] })), complete },
    deckPictures: { draw },
    attachments: { read },
    state: { longQueries },
  });
  return { app, draw, complete, read, texts };
}
