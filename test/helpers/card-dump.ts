import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import type { Card } from '../../src/cards/card.js';
import { normaliseCards } from '../../src/cards/normalise-card.js';

/** The fields of a YGOPRODeck `cardinfo.php` card that tests rely on; the dump has many more. */
export interface RawCard {
  id: number;
  name: string;
  type: string;
  frameType: string;
  desc: string;
  race: string;
  archetype?: string;
}

const DUMP_URL = new URL('../fixtures/cardinfo-2025-04-25.json.br', import.meta.url);

let dump: readonly RawCard[] | undefined;

/**
 * The real 2025-04-25 database dump (13,703 cards, no `misc_info`), read once per test process:
 * decompressing and parsing it costs about a quarter of a second, and a worker runs many files
 * that read it. Frozen, so a test that would change the cards others read throws instead (a test
 * that needs other cards maps them to new objects).
 */
export function loadCardDump(): RawCard[] {
  dump ??= deepFreeze(JSON.parse(brotliDecompressSync(readFileSync(DUMP_URL)).toString('utf8')) as RawCard[]);
  // A new array each time: a test may add, drop or reorder cards.
  return [...dump];
}

let normalised: readonly Card[] | undefined;

/**
 * The dump's cards as the bot normalises them, once per test process like the dump (a second of CPU
 * each time otherwise; several files of a worker read them). Frozen: a test copies before it changes.
 */
export function normalisedDumpCards(): readonly Card[] {
  normalised ??= deepFreeze(normaliseCards(loadCardDump()).cards);
  return normalised;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}
