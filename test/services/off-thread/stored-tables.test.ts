import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALIASES } from '../../../src/cards/aliases.js';
import { buildMatcherTables, type MatchableCard } from '../../../src/cards/matcher-tables.js';
import { CardMatcher } from '../../../src/cards/matcher.js';
import { soundKey } from '../../../src/cards/sound-key.js';
import { readStoredTables, STORED_TABLES_KEPT, storedTablesFile, writeStoredTables } from '../../../src/services/off-thread/stored-tables.js';
import { packCards, packNames, type PackedBuildInput } from '../../../src/services/off-thread/transfer.js';
import { loadCardDump } from '../../helpers/card-dump.js';
import { bundledWorkerJobs } from '../../helpers/off-thread.js';

const dump = loadCardDump().slice(0, 1_500);
const cards: MatchableCard[] = dump.map(({ id, name }, at) => ({ id, name, popularity: at % 11 }));
const french = new Map(dump.slice(0, 300).map(({ id, name }) => [id, `le ${name}`] as const));
const queries = ['dark magician', 'blue eyes', 'mistical space tyfoon', 'mst', 'le dark', '46986414'];

const inputOf = async (list: readonly MatchableCard[], names = new Map([['fr' as const, french]])): Promise<PackedBuildInput> => ({
  cards: await packCards(list),
  aliases: DEFAULT_ALIASES,
  languages: [...names].map(([language, byPasscode]) => packNames(language, byPasscode)),
});
const built = (list: readonly MatchableCard[]) => buildMatcherTables(list, DEFAULT_ALIASES, soundKey, (language) => (language === 'fr' ? french : []));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'almanac-stored-tables-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('stored matcher tables', () => {
  it('read back as tables a matcher answers from exactly as from the ones built, each array owning its buffer', async () => {
    const file = storedTablesFile(dir, 'cards', await inputOf(cards));
    expect(readStoredTables(file)).toBeUndefined();
    writeStoredTables(file, built(cards));
    const read = readStoredTables(file);
    expect(read).toBeDefined();
    // Moved to another thread array by array: two arrays over one buffer could not be.
    const buffers = [read!.entryCard, read!.entryCompact.codes, read!.singleWords.postings, read!.passcodes.ids].map((array) => array.buffer);
    expect(new Set(buffers).size).toBe(buffers.length);
    const fromDisk = new CardMatcher(cards, DEFAULT_ALIASES, { tables: read! });
    const fresh = new CardMatcher(cards, DEFAULT_ALIASES, { tables: built(cards) });
    for (const query of queries) {
      expect(fromDisk.search(query)).toEqual(fresh.search(query));
      expect(fromDisk.search(query, 25, 'fr')).toEqual(fresh.search(query, 25, 'fr'));
    }
  });

  it('are named by everything the build reads: a name, a popularity or a language changed is another file', async () => {
    const paths = new Set<string>();
    const renamed = cards.map((card, at) => (at === 7 ? { ...card, name: `${card.name}!` } : card));
    const morePopular = cards.map((card, at) => (at === 7 ? { ...card, popularity: 1e6 } : card));
    for (const input of [await inputOf(cards), await inputOf(renamed), await inputOf(morePopular), await inputOf(cards, new Map())]) {
      paths.add(storedTablesFile(dir, 'cards', input).path);
    }
    paths.add(storedTablesFile(dir, 'sets', await inputOf(cards)).path);
    expect(paths.size).toBe(5);
    expect(storedTablesFile(dir, 'cards', await inputOf(cards)).path).toBe(storedTablesFile(dir, 'cards', await inputOf(cards)).path);
  });

  it('are not read from a file that does not hold tables: truncated, garbage, or some other value', async () => {
    const file = storedTablesFile(dir, 'cards', await inputOf(cards));
    writeStoredTables(file, built(cards));
    const whole = (await stat(file.path)).size;
    await writeFile(file.path, Buffer.alloc(Math.floor(whole / 2), 1));
    expect(readStoredTables(file)).toBeUndefined();
    await writeFile(file.path, 'not tables at all');
    expect(readStoredTables(file)).toBeUndefined();
    const { serialize } = await import('node:v8');
    await writeFile(file.path, serialize({ ...built(cards), entryCard: [1, 2, 3] }));
    expect(readStoredTables(file)).toBeUndefined();
  });

  it('keep the most recently used files of each matcher, and no temporary file', async () => {
    const older = storedTablesFile(dir, 'cards', await inputOf(cards.slice(0, 100)));
    writeStoredTables(older, built(cards.slice(0, 100)));
    const sets = storedTablesFile(dir, 'sets', await inputOf(cards.slice(0, 50)));
    writeStoredTables(sets, built(cards.slice(0, 50)));
    const used = storedTablesFile(dir, 'cards', await inputOf(cards.slice(0, 200)));
    writeStoredTables(used, built(cards.slice(0, 200)));
    // The older file was used last (read at a start): it stays, the one never read again goes.
    await utimes(used.path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await utimes(older.path, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(readStoredTables(older)).toBeDefined();
    const newest = storedTablesFile(dir, 'cards', await inputOf(cards.slice(0, 300)));
    writeStoredTables(newest, built(cards.slice(0, 300)));
    expect(STORED_TABLES_KEPT).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([newest.path, older.path, sets.path].map((path) => path.slice(dir.length + 1)).sort());
  });
});

describe('matcher builds with a store, in the worker thread', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const { buildMatcherTables: build } = bundledWorkerJobs();
  const names = new Map([['fr' as const, french]]);

  it('build and write the first time, read the second, and give the same matcher', async () => {
    lines.length = 0;
    const store = { dir: join(dir, 'matcher'), name: 'cards', logger };
    const first = await build(cards, DEFAULT_ALIASES, names, undefined, store);
    const second = await build(cards, DEFAULT_ALIASES, names, undefined, store);
    expect(lines.map((line) => line.stored)).toEqual(['written', 'read']);
    const fromFirst = new CardMatcher(cards, DEFAULT_ALIASES, { tables: first });
    const fromSecond = new CardMatcher(cards, DEFAULT_ALIASES, { tables: second });
    for (const query of queries) expect(fromSecond.search(query, 25, 'fr')).toEqual(fromFirst.search(query, 25, 'fr'));
  });

  it('still answer, and say why, when the store cannot be written', async () => {
    lines.length = 0;
    const readOnly = join(dir, 'read-only');
    await writeFile(readOnly, 'a file where the folder should be');
    const tables = await build(cards.slice(0, 100), DEFAULT_ALIASES, names, undefined, { dir: readOnly, name: 'cards', logger });
    expect(new CardMatcher(cards.slice(0, 100), DEFAULT_ALIASES, { tables }).search(cards[42]!.name)[0]?.id).toBe(cards[42]!.id);
    expect(lines).toEqual([expect.objectContaining({ level: 40, matcher: 'cards', msg: 'matcher tables could not be kept for the next start' })]);
  });
});
