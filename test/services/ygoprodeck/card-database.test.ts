import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CardDatabase, type CardDatabaseReload } from '../../../src/services/ygoprodeck/card-database.js';
import type { CardDatabaseOptions } from '../../../src/services/ygoprodeck/card-database-options.js';
import { SNAPSHOT_FILE, type SnapshotHeader } from '../../../src/services/ygoprodeck/card-snapshot.js';
import { readSnapshot, SNAPSHOT_FORMATS, writeSnapshot } from '../../../src/services/ygoprodeck/card-snapshot.js';
import { CompactRecords } from '../../../src/cards/compact-records.js';
import { decodeCached, encodeCached } from '../../../src/state/redis/value-codec.js';
import type { CompactDownload } from '../../../src/services/off-thread/compact-download.js';
import { YgoprodeckClient } from '../../../src/services/ygoprodeck/ygoprodeck.js';
import { CARD_FORMAT_VERSION } from '../../../src/cards/card.js';
import { waitForCondition } from '../../helpers/wait-for-condition.js';
import { writeCardFormat2Snapshot } from '../../helpers/card-snapshot.js';
import { translatedCard } from '../../fakes/card-translations.js';
import { QUIRK_CARD_IDS, TEST_PACE, startFakeYgoprodeck, type FakeYgoprodeck } from '../../fakes/ygoprodeck.js';
import { normalisedDumpCards } from '../../helpers/card-dump.js';

let fake: FakeYgoprodeck;
let dataDir: string;
let client: YgoprodeckClient;
const databases: CardDatabase[] = [];

beforeEach(async () => {
  fake = await startFakeYgoprodeck();
  dataDir = await mkdtemp(join(tmpdir(), 'almanac-cards-'));
  client = new YgoprodeckClient({ baseUrl: fake.url, imagesBaseUrl: fake.imagesUrl, limits: TEST_PACE });
});

afterEach(async () => {
  await Promise.all(databases.splice(0).map((database) => database.close()));
  await client.close();
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

const GENESYS_FILE = 'cards.genesys.snapshot';
const snapshotPath = () => join(dataDir, 'cards', SNAPSHOT_FILE);
const versionChecks = () => fake.requestsTo('/api/v7/checkDBVer.php').length;

/** The fake serves 300 cards; production refuses fewer than 5,000. English alone unless `languages` says otherwise. */
function database(options: Partial<CardDatabaseOptions> = {}): CardDatabase {
  const created = new CardDatabase({ client, dataDir, minCards: 100, languages: [], ...options });
  databases.push(created);
  return created;
}

/** A started database that has downloaded (or loaded) version `fake.version`. */
async function readyDatabase(options: Partial<CardDatabaseOptions> = {}): Promise<CardDatabase> {
  const created = database(options);
  await created.start();
  await created.refresh();
  expect(created.ready).toBe(true);
  return created;
}

function waitForRequests(count: () => number, atLeast: number): Promise<number> {
  return waitForCondition({
    emitter: fake.events,
    events: ['request'],
    probe: () => (count() >= atLeast ? count() : undefined),
    timeoutMs: 10_000,
    describeTimeout: () => `expected ${atLeast} requests, saw ${count()}`,
  });
}

/** The English snapshot's header and cards, verified. */
async function readCardsSnapshot(): Promise<{ header: SnapshotHeader; cards: unknown[] }> {
  const { header, body } = await readSnapshot(snapshotPath(), SNAPSHOT_FORMATS.cards);
  const cards: unknown[] = [];
  CompactRecords.parse(body, (record): record is object => cards.push(record) > 0);
  return { header, cards };
}

/** Writes a snapshot of `cards` (any JSON: tests write wrong shapes too) with a valid checksum. */
async function writeCardsSnapshot(cards: unknown, overrides: Partial<SnapshotHeader> = {}): Promise<void> {
  const body = Array.isArray(cards) ? CompactRecords.lines(cards as object[]).body : Buffer.from(`${JSON.stringify(cards)}\n`);
  await writeSnapshot(join(dataDir, 'cards'), SNAPSHOT_FILE, {
    format: 'almanac-cards',
    cardFormat: CARD_FORMAT_VERSION,
    databaseVersion: '1.00',
    downloadedAt: Date.now(),
    cardCount: Array.isArray(cards) ? cards.length : 1,
    skippedCards: 0,
    bytes: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
    ...overrides,
  }, body);
}

describe('first start', () => {
  it('answers through the API until the first load', async () => {
    const db = database();
    expect(db.ready).toBe(false);
    expect(db.byName('Dark Magician')).toBeUndefined();
    expect(await db.lookupRemote('Dark Magician')).toMatchObject({ id: QUIRK_CARD_IDS.normalMonster });
    expect(await db.lookupRemote(QUIRK_CARD_IDS.token)).toMatchObject({ name: 'Ancient Gear Token' });
    expect(fake.fullDownloads()).toHaveLength(0);
  });

  it('downloads the database once when there is no snapshot, writes it and announces the new set', async () => {
    const db = database();
    const reloads: CardDatabaseReload[] = [];
    db.onReload((reload) => reloads.push(reload));
    await db.start();
    const outcome = await db.refresh();
    expect(outcome).toEqual({ updated: true, version: '1.00' });
    expect(fake.fullDownloads()).toHaveLength(1);
    expect(reloads).toEqual([{ version: '1.00', previousVersion: null, size: 300, source: 'download' }]);
    expect([db.version, db.size, db.summaries().length]).toEqual(['1.00', 300, 300]);
    expect(db.loadedAt).toBeTypeOf('number');
    const snapshot = await readCardsSnapshot();
    expect(snapshot.header).toMatchObject({
      format: 'almanac-cards',
      cardFormat: CARD_FORMAT_VERSION,
      databaseVersion: '1.00',
      cardCount: 300,
      skippedCards: 0,
      lastUpdate: fake.lastUpdate,
    });
    expect(snapshot.cards).toEqual(db.summaries().map((summary) => db.byId(summary.id)));
  });

  it('refuses a first download with fewer cards than the minimum', async () => {
    fake.cardinfoBody = 'few';
    const db = database();
    await db.start();
    await expect(db.refresh()).rejects.toMatchObject({ kind: 'bad_response', message: expect.stringContaining('refused as corrupt') });
    expect(db.ready).toBe(false);
    await expect(readFile(snapshotPath())).rejects.toMatchObject({ code: 'ENOENT' });
    expect(db.details()).toMatchObject({ cardDatabase: 'remote lookups only', cardDatabaseLastError: 'bad_response' });
  });
});

describe('restart with a snapshot', () => {
  it('loads the snapshot at start without downloading again', async () => {
    await readyDatabase();
    const downloads = fake.fullDownloads().length;
    const checks = versionChecks();
    const db = database();
    const reloads: CardDatabaseReload[] = [];
    db.onReload((reload) => reloads.push(reload));
    await db.start();
    expect(db.ready).toBe(true);
    expect(reloads).toEqual([{ version: '1.00', previousVersion: null, size: 300, source: 'snapshot' }]);
    expect(await db.refresh()).toEqual({ updated: false, version: '1.00' });
    expect(fake.fullDownloads()).toHaveLength(downloads);
    expect(versionChecks()).toBeGreaterThan(checks);
    expect(db.details()).toMatchObject({ cardDatabase: 'local', cardDatabaseVersion: '1.00', cardDatabaseSize: 300 });
    expect(db.details().cardDatabaseLoadMs).toBeTypeOf('number');
  });

  it('a snapshot of card format 2 (main 9f0f9b6) serves until a download in the new format replaces it, at the same version', async () => {
    await writeCardFormat2Snapshot(dataDir, fake.cards, '1.00');
    let release!: () => void;
    fake.wholeDownloadsHeld = new Promise<void>((resolve) => (release = resolve));
    const db = database();
    await db.start();
    expect([db.ready, db.size]).toEqual([true, 300]);
    expect(db.byId(QUIRK_CARD_IDS.masterDuelForbidden)?.banlist.masterduel).toBeUndefined();
    await waitForRequests(() => fake.fullDownloads().length, 1);
    expect(db.byName('Dark Magician')?.id).toBe(QUIRK_CARD_IDS.normalMonster);
    const replaced = new Promise<CardDatabaseReload>((resolve) => db.onReload(resolve));
    release();
    expect(await replaced).toMatchObject({ version: '1.00', previousVersion: '1.00', source: 'download' });
    expect((await readCardsSnapshot()).header.cardFormat).toBe(CARD_FORMAT_VERSION);
    expect(db.byId(QUIRK_CARD_IDS.masterDuelForbidden)).toMatchObject({ banlist: { masterduel: 'Forbidden' } });
    expect(db.byId(QUIRK_CARD_IDS.treatedAs)?.treatedAs).toBe('Harpie Lady');
    // The start's refresh goes on to the Genesys pool; the next one finds everything current.
    await db.refresh();
    expect(await db.refresh()).toEqual({ updated: false, version: '1.00' });
    expect(fake.fullDownloads()).toHaveLength(1);
  });

  it('loads a snapshot of the full real database (13,703 cards)', async () => {
    const cards = await normalisedDumpCards();
    await writeCardsSnapshot(cards, { databaseVersion: '99.00' });
    fake.version = '99.00';
    const db = database();
    await db.start();
    expect([db.ready, db.size, db.version]).toEqual([true, 13_703, '99.00']);
    expect(db.byName('blue-eyes white dragon')).toEqual(cards.find((card) => card.id === QUIRK_CARD_IDS.altArts));
    console.log(`full-dump snapshot loaded in ${db.details().cardDatabaseLoadMs} ms`);
  });
});

describe('version changes', () => {
  it('a new checkDBVer.php version triggers exactly one download, however many refreshes overlap', async () => {
    const db = await readyDatabase();
    const reloads: CardDatabaseReload[] = [];
    db.onReload((reload) => reloads.push(reload));
    fake.version = '2.00';
    fake.cards = fake.cards.slice(0, 290);
    const outcomes = await Promise.all([db.refresh(), db.refresh(), db.refresh(), db.refresh()]);
    expect(outcomes).toEqual(Array(4).fill({ updated: true, version: '2.00' }));
    expect(fake.fullDownloads()).toHaveLength(2);
    expect(reloads).toEqual([{ version: '2.00', previousVersion: '1.00', size: 290, source: 'download' }]);
    expect(await db.refresh()).toEqual({ updated: false, version: '2.00' });
    expect(fake.fullDownloads()).toHaveLength(2);
    expect((await readCardsSnapshot()).header.databaseVersion).toBe('2.00');
  });

  it('polling downloads once per version change', async () => {
    const db = await readyDatabase({ pollIntervalMs: 30 });
    await waitForRequests(versionChecks, versionChecks() + 3);
    expect(fake.fullDownloads()).toHaveLength(1);
    fake.version = '2.00';
    await waitForRequests(() => fake.fullDownloads().length, 2);
    await waitForRequests(versionChecks, versionChecks() + 3);
    expect(fake.fullDownloads()).toHaveLength(2);
    expect(db.version).toBe('2.00');
  });

  it.each(['truncated', 'few'] as const)('a %s download leaves the previous snapshot in use, on disk and in memory', async (mode) => {
    const db = await readyDatabase();
    const before = await readFile(snapshotPath());
    fake.version = '2.00';
    fake.cardinfoBody = mode;
    await expect(db.refresh()).rejects.toMatchObject({ kind: 'bad_response' });
    expect([db.version, db.size]).toEqual(['1.00', 300]);
    // Buffer.equals: a deep toEqual over the 400 KB snapshot takes a second.
    expect((await readFile(snapshotPath())).equals(before)).toBe(true);
    expect((await readdir(join(dataDir, 'cards'))).sort()).toEqual([GENESYS_FILE, SNAPSHOT_FILE]);
    fake.cardinfoBody = 'full';
    expect(await db.refresh()).toEqual({ updated: true, version: '2.00' });
  });

  it('a failed check (circuit open) changes nothing', async () => {
    const db = await readyDatabase();
    fake.blocked = true;
    fake.version = '2.00';
    await expect(db.refresh()).rejects.toMatchObject({ kind: 'rate_limited' });
    await expect(db.refresh()).rejects.toMatchObject({ kind: 'rate_limited' });
    expect([db.version, db.size, fake.fullDownloads().length]).toEqual(['1.00', 300, 1]);
  });
});

describe('corrupt snapshots', () => {
  const corruptions: [string, (path: string) => Promise<void>][] = [
    ['not JSON at all', (path) => writeFile(path, 'garbage\n{"data":')],
    ['cut in half', async (path) => writeFile(path, (await readFile(path)).subarray(0, 50_000))],
    [
      'a byte changed (checksum mismatch)',
      async (path) => {
        const file = await readFile(path);
        file[file.length - 100] = 0x20;
        await writeFile(path, file);
      },
    ],
    ['not an array under a valid checksum', () => writeCardsSnapshot({ cards: [] })],
    ['not cards under a valid checksum', () => writeCardsSnapshot([{ id: 1, name: 'Dark Magician' }])],
    [
      'missing cards its header announces',
      async () => {
        const cards = (await readCardsSnapshot()).cards;
        await writeCardsSnapshot(cards.slice(1), { cardCount: cards.length });
      },
    ],
    [
      'written by an older card format',
      async () => writeCardsSnapshot((await readCardsSnapshot()).cards, { cardFormat: 1 }),
    ],
    [
      'a header from another format',
      async (path) => {
        const file = await readFile(path);
        await writeFile(path, Buffer.concat([Buffer.from('{"format":"other/9"}'), file.subarray(file.indexOf(0x0a))]));
      },
    ],
  ];

  it.each(corruptions)('a snapshot that is %s is detected and replaced by a fresh download', async (_label, corrupt) => {
    await readyDatabase();
    await corrupt(snapshotPath());
    const db = database();
    await db.start();
    expect(db.ready).toBe(false);
    expect(await db.refresh()).toEqual({ updated: true, version: '1.00' });
    expect(fake.fullDownloads()).toHaveLength(2);
    expect((await readCardsSnapshot()).cards).toHaveLength(300);
  });
});

describe('crash safety', () => {
  const moduleUrl = new URL('../../../src/services/ygoprodeck/card-snapshot.ts', import.meta.url).href;

  /** Runs writeSnapshot in a child process that SIGKILLs itself right after the first write to the temp file. */
  async function crashWhileWriting(dir: string): Promise<NodeJS.Signals | null> {
    const script = `
      import { open } from 'node:fs/promises';
      import { writeSnapshot } from ${JSON.stringify(moduleUrl)};
      const probe = await open(${JSON.stringify(process.platform === 'win32' ? 'NUL' : '/dev/null')}, 'r');
      const fileHandle = Object.getPrototypeOf(probe);
      await probe.close();
      const write = fileHandle.write;
      fileHandle.write = async function (...args) {
        const written = await write.apply(this, args);
        process.kill(process.pid, 'SIGKILL');
        return written;
      };
      const body = Buffer.alloc(4_000_000, 0x20);
      await writeSnapshot(${JSON.stringify(dir)}, 'cards.snapshot', { format: 'almanac-cards', cardFormat: 1, databaseVersion: '2.00', downloadedAt: 0, cardCount: 1, skippedCards: 0, bytes: body.length, sha256: '0'.repeat(64) }, body);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (_code, signal) => resolve(signal));
    });
  }

  it('a process killed while writing the temp file leaves the previous snapshot loadable', async () => {
    await readyDatabase();
    const dir = join(dataDir, 'cards');
    expect(await crashWhileWriting(dir)).toBe('SIGKILL');
    const leftovers = (await readdir(dir)).filter((name) => name.endsWith('.tmp'));
    expect(leftovers).toHaveLength(1);
    const db = database();
    await db.start();
    expect([db.ready, db.version, db.size]).toEqual([true, '1.00', 300]);
    expect((await readdir(dir)).sort()).toEqual([GENESYS_FILE, SNAPSHOT_FILE]);
  });

  it('a crash between the two renames (only the .bak left) still loads', async () => {
    await readyDatabase();
    const dir = join(dataDir, 'cards');
    await rename(snapshotPath(), `${snapshotPath()}.bak`);
    await writeFile(join(dir, `${SNAPSHOT_FILE}.123.abc.tmp`), '{"format":"almanac-cardinfo/1"');
    const db = database();
    await db.start();
    expect([db.ready, db.version, db.size]).toEqual([true, '1.00', 300]);
    fake.version = '2.00';
    await db.refresh();
    expect((await readdir(dir)).sort()).toEqual([GENESYS_FILE, SNAPSHOT_FILE]);
    expect((await readCardsSnapshot()).header.databaseVersion).toBe('2.00');
  });

  it('a snapshot that cannot be written still updates the cards in memory', async () => {
    await mkdir(join(dataDir, 'cards', SNAPSHOT_FILE), { recursive: true });
    const db = database();
    await db.start();
    expect(await db.refresh()).toEqual({ updated: true, version: '1.00' });
    expect(db.size).toBe(300);
  });
});

describe('lookups', () => {
  it('finds cards by id (alternate arts included) and by exact name, ignoring case', async () => {
    const db = await readyDatabase();
    expect(db.byId(QUIRK_CARD_IDS.altArts)?.name).toBe('Blue-Eyes White Dragon');
    expect(db.byId(89631146)?.id).toBe(QUIRK_CARD_IDS.altArts);
    expect(db.byId(1)).toBeUndefined();
    expect(db.byName('  blue-EYES white dragon ')?.id).toBe(QUIRK_CARD_IDS.altArts);
    expect(db.byName('Blue-Eyes')).toBeUndefined();
    expect(db.byName('Ash Blossom & Joyous Spring')?.altNames).toEqual([]);
  });

  it('picks random cards, never an excluded one', async () => {
    let draw = 0;
    const sequence = [0, 0, 0, 0.5];
    const db = await readyDatabase({ random: () => sequence[draw++ % sequence.length]! });
    const all = db.summaries();
    const first = all[0]!;
    expect(db.random()?.id).toBe(first.id);
    draw = 0;
    expect(db.random(new Set([first.id]))?.id).toBe(all[150]!.id);
    const allButOne = new Set(all.map((card) => card.id));
    allButOne.delete(all[42]!.id);
    expect(db.random(allButOne)?.id).toBe(all[42]!.id);
    expect(db.random(new Set(all.map((card) => card.id)))).toBeUndefined();
    expect(database().random()).toBeUndefined();
  });

  it('validates its options, naming the bad one', () => {
    expect(() => new CardDatabase({ client, dataDir, pollIntervalMs: 0 })).toThrow(/"pollIntervalMs"/);
    expect(() => new CardDatabase({ client, dataDir, minCards: Number.NaN })).toThrow(/"minCards"/);
    expect(() => new CardDatabase({ client, dataDir, languages: ['es' as 'fr'] })).toThrow(/"languages"/);
    expect(() => new CardDatabase({ client, dataDir: ' ' })).toThrow(/"dataDir"/);
  });
});

describe('language databases', () => {
  const LANGUAGES = ['fr', 'de', 'it', 'pt'] as const;
  const textsPath = (language: string) => join(dataDir, 'cards', `cards.${language}.snapshot`);
  const downloadsPerLanguage = () => LANGUAGES.map((language) => fake.languageDownloads(language).length);
  const darkMagicianIn = (language: (typeof LANGUAGES)[number]) =>
    translatedCard(fake.cards.find((card) => card.id === QUIRK_CARD_IDS.normalMonster)!, language)!;

  it('downloads each language once per version, after English, however many refreshes overlap, answering all along, and snapshots each', async () => {
    const db = await readyDatabase({ languages: LANGUAGES });
    expect(downloadsPerLanguage()).toEqual([1, 1, 1, 1]);
    for (const language of LANGUAGES) {
      expect(db.hasTexts(language)).toBe(true);
      expect(db.translation(QUIRK_CARD_IDS.normalMonster, language)?.name).toBe(darkMagicianIn(language).name);
      expect(db.localNames(language).get(QUIRK_CARD_IDS.normalMonster)).toBe(darkMagicianIn(language).name);
      // About 3 % of the cards have no translation.
      expect(db.localNames(language).size).toBeGreaterThan(270);
      expect(db.localNames(language).size).toBeLessThan(300);
      expect((await readSnapshot(textsPath(language), SNAPSHOT_FORMATS.texts)).header).toMatchObject({ databaseVersion: '1.00', language });
    }
    expect(db.details()).toMatchObject({ cardTextsFr: expect.stringMatching(/^1\.00 \(\d+ cards\)$/) });

    fake.version = '2.00';
    let done = false;
    const refreshes = Promise.all([db.refresh(), db.refresh(), db.refresh()]).finally(() => (done = true));
    // At every turn of the event loop while the new version loads, the old databases or the new ones answer.
    const versions = new Set<string | null>();
    while (!done) {
      versions.add(db.version);
      expect(db.summaryById(QUIRK_CARD_IDS.normalMonster)?.name).toBe('Dark Magician');
      expect(db.byName('dark magician')?.id).toBe(QUIRK_CARD_IDS.normalMonster);
      for (const language of LANGUAGES) expect(db.translation(QUIRK_CARD_IDS.normalMonster, language)?.name).toBe(darkMagicianIn(language).name);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await refreshes;
    expect(versions).toEqual(new Set(['1.00', '2.00']));
    await db.refresh();
    expect(downloadsPerLanguage()).toEqual([2, 2, 2, 2]);
    expect(fake.fullDownloads()).toHaveLength(2);
    for (const language of LANGUAGES) {
      expect((await readSnapshot(textsPath(language), SNAPSHOT_FORMATS.texts)).header.databaseVersion).toBe('2.00');
    }
  });

  it('loads the language snapshots at start without downloading them again', async () => {
    await readyDatabase({ languages: LANGUAGES });
    const db = database({ languages: LANGUAGES });
    const reloads: string[] = [];
    db.onTextsReload((reload) => reloads.push(`${reload.language} ${reload.version} ${reload.source}`));
    await db.start();
    expect(reloads).toEqual(LANGUAGES.map((language) => `${language} 1.00 snapshot`));
    expect(db.translation(QUIRK_CARD_IDS.normalMonster, 'it')?.description.text).toBe(darkMagicianIn('it').desc.trim());
    await db.refresh();
    expect(downloadsPerLanguage()).toEqual([1, 1, 1, 1]);
  });

  it.each(['truncated', 'few'] as const)('a %s language download keeps that language’s previous texts, on disk and in memory', async (mode) => {
    const db = await readyDatabase({ languages: LANGUAGES });
    const before = await readFile(textsPath('fr'));
    const frenchBefore = db.translation(QUIRK_CARD_IDS.normalMonster, 'fr');
    fake.version = '2.00';
    fake.languageDumpBody = { fr: mode };
    expect(await db.refresh()).toEqual({ updated: true, version: '2.00' });
    expect(db.version).toBe('2.00');
    expect(db.translation(QUIRK_CARD_IDS.normalMonster, 'fr')).toEqual(frenchBefore);
    expect((await readFile(textsPath('fr'))).equals(before)).toBe(true);
    expect(db.details().cardTextsFr).toMatch(/^1\.00 \(\d+ cards\); last download failed: bad_response$/);
    // The other languages moved on; French is tried again at the next check, once.
    expect(db.details()).toMatchObject({ cardTextsDe: expect.stringMatching(/^2\.00 /) });
    fake.languageDumpBody = {};
    await db.refresh();
    await db.refresh();
    expect(downloadsPerLanguage()).toEqual([3, 2, 2, 2]);
    expect(db.details().cardTextsFr).toMatch(/^2\.00 \(\d+ cards\)$/);
  });

  it('a corrupt language snapshot is replaced by a fresh download of that language alone', async () => {
    await readyDatabase({ languages: LANGUAGES });
    const file = await readFile(textsPath('de'));
    await writeFile(textsPath('de'), file.subarray(0, file.length - 10));
    const db = database({ languages: LANGUAGES });
    await db.start();
    expect([db.hasTexts('de'), db.hasTexts('fr')]).toEqual([false, true]);
    await db.refresh();
    expect(db.hasTexts('de')).toBe(true);
    expect(downloadsPerLanguage()).toEqual([1, 2, 1, 1]);
  });

  it('runs every download through downloadOnce, named for its database and version, and installs what it returns', async () => {
    const keys: string[] = [];
    const db = await readyDatabase({
      languages: ['fr', 'pt'],
      downloadOnce: async (key, download) => {
        keys.push(key);
        // What a fleet's shared state does: the result crosses processes encoded.
        return decodeCached(encodeCached(await download()));
      },
    });
    expect(keys).toEqual([`cards:en:1.00:${CARD_FORMAT_VERSION}:compact-v2`, 'cards:genesys:1.00:compact-v2', 'cards:fr:1.00:compact-v2', 'cards:pt:1.00:compact-v2']);
    expect([db.size, db.localNames('pt').get(QUIRK_CARD_IDS.normalMonster)]).toEqual([300, darkMagicianIn('pt').name]);
  });

  it('refuses a shared download whose line starts are not its body’s, as a failed download', async () => {
    const db = await readyDatabase({
      languages: ['fr'],
      downloadOnce: async (key, download) => {
        const shared = await download();
        // One record's line start moved inside its line.
        if (key.startsWith('cards:fr:')) (shared as CompactDownload).starts[1]! += 1;
        return shared;
      },
    });
    expect([db.size, db.hasTexts('fr'), db.details().cardTextsFr]).toEqual([300, false, 'not loaded; last download failed: error']);
  });
});

describe('Genesys points', () => {
  const genesysPath = () => join(dataDir, 'cards', GENESYS_FILE);
  const pointsOf = (db: CardDatabase, id: number) => db.genesysPool()?.pointsOf(id);

  it('downloads the pool once per version after English, with its points, snapshots it and loads the snapshot at the next start', async () => {
    fake.genesysPoints = { 'Dark Magician': 7 };
    const reloads: string[] = [];
    const db = database();
    db.onGenesysReload((reload) => reloads.push(`${reload.version} ${reload.source}`));
    await db.start();
    await db.refresh();
    expect(fake.genesysDownloads().map((request) => request.query.toString())).toEqual(['format=genesys&misc=yes']);
    expect([pointsOf(db, QUIRK_CARD_IDS.normalMonster), pointsOf(db, QUIRK_CARD_IDS.ampersandName)]).toEqual([7, 0]);
    // Link and Pendulum monsters, skills and tokens are not in the pool.
    for (const id of [QUIRK_CARD_IDS.linkNullDefLevel, QUIRK_CARD_IDS.pendulum, QUIRK_CARD_IDS.skill]) expect(pointsOf(db, id)).toBeUndefined();
    expect(db.genesysPool()?.pointed()).toEqual([{ id: QUIRK_CARD_IDS.normalMonster, name: 'Dark Magician', points: 7 }]);
    expect((await readSnapshot(genesysPath(), SNAPSHOT_FORMATS.genesys)).header).toMatchObject({ databaseVersion: '1.00', cardCount: db.genesysPool()!.size });
    expect(db.details().genesysPoints).toMatch(/^1\.00 \(\d+ cards\)$/);

    const restarted = database();
    restarted.onGenesysReload((reload) => reloads.push(`${reload.version} ${reload.source}`));
    await restarted.start();
    await restarted.refresh();
    expect(pointsOf(restarted, QUIRK_CARD_IDS.normalMonster)).toBe(7);
    expect(fake.genesysDownloads()).toHaveLength(1);

    fake.serveGenesysChange('2.00', { 'Dark Magician': 20 });
    await db.refresh();
    expect([db.genesysVersion, pointsOf(db, QUIRK_CARD_IDS.normalMonster)]).toEqual(['2.00', 20]);
    expect(reloads).toEqual(['1.00 download', '1.00 snapshot', '2.00 download']);
  });

  it.each(['truncated', 'few'] as const)('a %s pool download keeps the previous points, and is tried again at the next check', async (mode) => {
    fake.genesysPoints = { 'Dark Magician': 7 };
    const db = await readyDatabase();
    fake.genesysBody = mode;
    fake.serveGenesysChange('2.00', { 'Dark Magician': 20 });
    expect(await db.refresh()).toEqual({ updated: true, version: '2.00' });
    expect([db.genesysVersion, pointsOf(db, QUIRK_CARD_IDS.normalMonster)]).toEqual(['1.00', 7]);
    expect(db.details().genesysPoints).toMatch(/^1\.00 \(\d+ cards\); last download failed: bad_response$/);
    fake.genesysBody = 'full';
    await db.refresh();
    expect([db.genesysVersion, pointsOf(db, QUIRK_CARD_IDS.normalMonster)]).toEqual(['2.00', 20]);
  });
});
