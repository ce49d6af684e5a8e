import { createHash, type Hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALIASES } from '../../src/cards/aliases.js';
import { buildMatcherTables, MATCHER_TABLES_FORMAT } from '../../src/cards/matcher-tables.js';
import { soundKey } from '../../src/cards/sound-key.js';
import { loadCardDump } from '../helpers/card-dump.js';

/** Everything in `value`, typed arrays as their bytes, objects by key in a fixed order. */
function digest(value: unknown, hash: Hash = createHash('sha256')): Hash {
  if (ArrayBuffer.isView(value)) hash.update(`${value.constructor.name}:`).update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  else if (Array.isArray(value)) value.forEach((item) => digest(item, hash.update('[')));
  else if (typeof value === 'object' && value !== null) for (const key of Object.keys(value).sort()) digest((value as Record<string, unknown>)[key], hash.update(`{${key}:`));
  else hash.update(JSON.stringify(value));
  return hash;
}

/**
 * What the build gave for this sample when MATCHER_TABLES_FORMAT took its value. Restarts read back
 * stored tables by their input and the format alone, so a build that gives something else for the
 * same input must come with a new format; then record its digest here.
 */
const RECORDED = { format: 1, digest: 'dd1785f6930c08247b1237f2e6529369572afe7bd37bb871a775d94924e6266c' };

describe('matcher tables', () => {
  it('change only with MATCHER_TABLES_FORMAT (tables kept between starts are read back by it)', () => {
    const sample = loadCardDump().slice(0, 400);
    const cards = sample.map(({ id, name }, at) => ({ id, name, popularity: at % 13, ...(at % 5 === 0 ? { altNames: [`${name} (old)`] } : {}) }));
    const french = new Map(sample.slice(0, 120).map(({ id, name }) => [id, `le ${name}`] as const));
    const aliases = { ...DEFAULT_ALIASES, fst: cards[3]!.name, 'sec two': cards[17]!.name };
    const tables = buildMatcherTables(cards, aliases, soundKey, (language) => (language === 'fr' ? french : []));
    expect({ format: MATCHER_TABLES_FORMAT, digest: digest(tables).digest('hex') }).toEqual(RECORDED);
  });
});
