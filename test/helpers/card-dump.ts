import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import { brotliDecompressSync } from 'node:zlib';
import type { Card } from '../../src/cards/card.js';
import { normaliseCards } from '../../src/cards/normalise-card.js';
import { inRunFolder, onceInRun } from './once-in-run.js';

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

let normalised: Promise<readonly Card[]> | undefined;

/**
 * The dump's cards as the bot normalises them, frozen (a test copies before it changes). Normalised
 * once per run (a second of CPU) and read back by every other test process in a quarter of that
 * (see onceInRun), then kept by each process like the dump.
 */
export function normalisedDumpCards(): Promise<readonly Card[]> {
  normalised ??= sharedInRun().then(deepFreeze);
  return normalised;
}

async function sharedInRun(): Promise<Card[]> {
  const normalise = () => normaliseCards(loadCardDump()).cards;
  const path = inRunFolder('normalised-dump.v8');
  if (path === undefined) return normalise();
  const read = () => readFile(path).then((bytes) => deserialize(bytes) as Card[], () => undefined);
  return onceInRun(path, read, async () => {
    const cards = normalise();
    // Renamed into place whole: a reader never sees half of it.
    await writeFile(`${path}.partial`, serialize(cards));
    await rename(`${path}.partial`, path);
    return cards;
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}
