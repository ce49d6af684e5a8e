import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';

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

/** The real 2025-04-25 database dump (13,703 cards, no `misc_info`). Decompressing takes ~100 ms. */
export function loadCardDump(): RawCard[] {
  return JSON.parse(brotliDecompressSync(readFileSync(DUMP_URL)).toString('utf8')) as RawCard[];
}
