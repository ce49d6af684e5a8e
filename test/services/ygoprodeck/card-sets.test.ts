import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledWorkerJobs, testOffThread } from '../../helpers/off-thread.js';
import { CARD_SET_KEY_PATTERN, cardSetKey } from '../../../src/cards/card-set.js';
import { normaliseCardSets } from '../../helpers/card-sets.js';
import { CardDatabase } from '../../../src/services/ygoprodeck/card-database.js';
import { SNAPSHOT_FILE } from '../../../src/services/ygoprodeck/card-snapshot.js';
import { CardImageStore } from '../../../src/services/ygoprodeck/card-images.js';
import { CARD_SET_DEFAULTS, CARD_SETS_FILE, CardSetCatalog, type CardSetCatalogOptions } from '../../../src/services/ygoprodeck/card-sets.js';
import { setAutocompleteValue } from '../../../src/cards/card-set.js';
import { CardService } from '../../../src/services/ygoprodeck/cards.js';
import { YgoprodeckClient } from '../../../src/services/ygoprodeck/ygoprodeck.js';
import type { MatcherTablesBuild } from '../../../src/services/ygoprodeck/card-index-keeper.js';
import { LOB_SET, SECOND_LOB_SET, TEST_PACE, startFakeYgoprodeck, type FakeYgoprodeck } from '../../fakes/ygoprodeck.js';

const DARK_MAGICIAN = 46986414;
const BLUE_EYES = 89631139;
const HOUR = 60 * 60_000;

interface Harness {
  fake: FakeYgoprodeck;
  dataDir: string;
  client: YgoprodeckClient;
  database: CardDatabase;
  catalog: CardSetCatalog;
  service: CardService;
  /** The catalog's clock. */
  clock: { now: number };
}

const started: Harness[] = [];
const fakes: FakeYgoprodeck[] = [];
const dataDirs: string[] = [];

async function newFake(): Promise<FakeYgoprodeck> {
  const fake = await startFakeYgoprodeck();
  fakes.push(fake);
  return fake;
}

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'almanac-sets-'));
  dataDirs.push(dir);
  return dir;
}

/** The real client, database, image store, set catalog and card service against the fake (300 real cards, every set of the dump). */
function harnessOn(fake: FakeYgoprodeck, dataDir: string, options: Partial<CardSetCatalogOptions> = {}): Harness {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const client = new YgoprodeckClient({ baseUrl: fake.url, imagesBaseUrl: fake.imagesUrl, limits: TEST_PACE });
  // The fake serves 300 cards; the real database's minimum would refuse them as a corrupt download.
  // English alone: the set list follows the English database's version.
  const database = new CardDatabase({ client, dataDir, minCards: 100, languages: [] });
  const images = new CardImageStore({ client, dataDir });
  const catalog = new CardSetCatalog({ client, database, dataDir, now: () => clock.now, ...options });
  const service = new CardService({ database, images, client, sets: catalog, buildMatcherTables: testOffThread().buildMatcherTables });
  const harness = { fake, dataDir, client, database, catalog, service, clock };
  started.push(harness);
  return harness;
}

async function startLoaded(fake?: FakeYgoprodeck, dataDir?: string): Promise<Harness> {
  const harness = harnessOn(fake ?? (await newFake()), dataDir ?? (await newDataDir()));
  await harness.service.start();
  expect(await harness.service.whenReady(15_000)).toBe(true);
  expect(await harness.service.whenSetsReady(15_000)).toBe(true);
  return harness;
}

function cardsetsRequests(fake: FakeYgoprodeck): number {
  return fake.requestsTo('/api/v7/cardsets.php').length;
}

afterEach(async () => {
  for (const harness of started.splice(0)) await harness.service.close();
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the fake cardsets.php', () => {
  it('answers a bare array, A–Z, with a shared code and sets without a date or an image, and refuses any parameter', async () => {
    const fake = await newFake();
    const response = await fetch(`${fake.url}/api/v7/cardsets.php`);
    const body = (await response.json()) as { set_name: string; set_code: string; tcg_date?: string | null; set_image?: string | null }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.length).toBeGreaterThan(900);
    const names = body.map((set) => set.set_name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(body.filter((set) => set.set_code === 'LOB').map((set) => set.set_name)).toEqual([LOB_SET.set_name, SECOND_LOB_SET]);
    expect(body.some((set) => !('tcg_date' in set))).toBe(true);
    expect(body.some((set) => set.tcg_date === null)).toBe(true);
    expect(body.some((set) => !('set_image' in set))).toBe(true);
    expect(body.some((set) => set.set_image === null)).toBe(true);

    const refused = await fetch(`${fake.url}/api/v7/cardsets.php?num=1`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'cardsets.php does not accept parameters.' });
    expect((await fetch(`${fake.imagesUrl}/sets/LOB.jpg`)).status).toBe(200);
    expect((await fetch(`${fake.imagesUrl}/sets/NOPE.jpg`)).status).toBe(404);
  });
});

describe('card set normalisation', () => {
  it('keeps every field it can, leaves out what upstream leaves out, and normalises the quirks', () => {
    const { sets, skipped } = normaliseCardSets([
      { set_name: ' Legend of Blue Eyes White Dragon ', set_code: 'LOB', num_of_cards: 126, tcg_date: '2002-03-08', set_image: 'https://images.ygoprodeck.com/images/sets/LOB.jpg' },
      { set_name: 'No Date Or Image', set_code: 'NDOI', num_of_cards: '12' },
      { set_name: 'Null Date And Image', set_code: 'NULL', num_of_cards: 3, tcg_date: null, set_image: null },
      { set_name: 'Impossible Date', set_code: 'BAD', num_of_cards: 1, tcg_date: '2021-02-30', set_image: 'https://images.ygoprodeck.com/images/sets/../../x.jpg' },
      { set_name: 'Zero Date', set_code: 'ZERO', tcg_date: '0000-00-00', set_image: 'not a url' },
      { set_name: 'Odd Image Name', set_code: 'ODD', num_of_cards: -4, set_image: 'https://images.ygoprodeck.com/images/sets/A%20B.jpg' },
    ]);
    expect(skipped).toBe(0);
    expect(sets[0]).toEqual({
      key: cardSetKey('Legend of Blue Eyes White Dragon'),
      name: 'Legend of Blue Eyes White Dragon',
      code: 'LOB',
      cardCount: 126,
      tcgDate: '2002-03-08',
      imageStem: 'LOB',
    });
    expect(sets[1]).toEqual({ key: cardSetKey('No Date Or Image'), name: 'No Date Or Image', code: 'NDOI', cardCount: 12 });
    expect(sets[2]).toEqual({ key: cardSetKey('Null Date And Image'), name: 'Null Date And Image', code: 'NULL', cardCount: 3 });
    expect(sets.slice(3).map((set) => [set.tcgDate, set.imageStem, set.cardCount])).toEqual([
      [undefined, undefined, 1],
      [undefined, undefined, undefined],
      [undefined, undefined, undefined],
    ]);
    expect(sets.every((set) => CARD_SET_KEY_PATTERN.test(set.key))).toBe(true);
  });

  it('skips entries that are not sets and a second set of the same name, counting them', () => {
    const result = normaliseCardSets([
      { set_name: 'Metal Raiders', set_code: 'MRD', num_of_cards: 434 },
      { set_name: 'metal  raiders', set_code: 'MRD', num_of_cards: 1 },
      { set_name: '', set_code: 'X' },
      { set_code: 'NONAME' },
      'not an object',
      null,
    ]);
    expect(result.sets.map((set) => set.name)).toEqual(['Metal Raiders']);
    expect(result.skipped).toBe(5);
    expect(result.problems.length).toBeGreaterThan(0);
  });

  it('derives the same key from the same name whatever its case and spacing', () => {
    expect(cardSetKey('Legend of  Blue Eyes White Dragon')).toBe(cardSetKey('legend of blue eyes white dragon'));
    expect(cardSetKey('Metal Raiders')).not.toBe(cardSetKey('Magic Ruler'));
  });
});

describe('CardSetCatalog refresh policy', () => {
  it('fetches the list once on a first start, stores it next to the card snapshot, and tags it with the database version', async () => {
    const harness = await startLoaded();
    expect(cardsetsRequests(harness.fake)).toBe(1);
    const files = await readdir(join(harness.dataDir, 'cards'));
    expect(files).toEqual(expect.arrayContaining([CARD_SETS_FILE, SNAPSHOT_FILE]));
    const stored = JSON.parse(await readFile(join(harness.dataDir, 'cards', CARD_SETS_FILE), 'utf8')) as { sets: unknown[] };
    expect(stored.sets).toHaveLength(harness.catalog.all().length);
    // The dump names one set twice in different cases: it is listed once.
    expect(harness.catalog.all().length).toBe(harness.fake.cardSets.length - 1);
    expect(await harness.catalog.refreshIfDue()).toBe(false);
    expect(harness.service.health().details).toMatchObject({ cardSets: harness.catalog.all().length, cardSetsDatabaseVersion: '1.00' });
  });

  it('asks nothing on a restart with a stored list of the same database version', async () => {
    const fake = await newFake();
    const dataDir = await newDataDir();
    const first = await startLoaded(fake, dataDir);
    await first.service.close();
    started.splice(started.indexOf(first), 1);

    const second = harnessOn(fake, dataDir);
    second.clock.now = first.clock.now + 23 * HOUR;
    await second.service.start();
    expect(second.catalog.ready).toBe(true);
    expect(await second.service.whenReady(15_000)).toBe(true);
    expect(await second.catalog.refreshIfDue()).toBe(false);
    expect(cardsetsRequests(fake)).toBe(1);
    expect(second.catalog.byName(LOB_SET.set_name)?.code).toBe('LOB');
  });

  it('fetches at most once a day under the production settings: hourly checks over three days make three requests', async () => {
    const harness = await startLoaded();
    const start = harness.clock.now;
    for (let hour = 1; hour <= 72; hour++) {
      harness.clock.now = start + hour * CARD_SET_DEFAULTS.checkIntervalMs;
      await harness.catalog.refreshIfDue();
    }
    expect(CARD_SET_DEFAULTS.checkIntervalMs).toBe(HOUR);
    expect(CARD_SET_DEFAULTS.maxAgeMs).toBe(24 * HOUR);
    expect(cardsetsRequests(harness.fake)).toBe(1 + 3);
  });

  it('fetches again, once, when the card database version changes', async () => {
    const harness = await startLoaded();
    // The start's refresh goes on to the Genesys pool after the cards: let it end before the version moves.
    await harness.database.refresh();
    harness.fake.version = '2.00';
    await expect(harness.database.refresh()).resolves.toMatchObject({ updated: true, version: '2.00' });
    // The reload already started the fetch; asking again shares it.
    await harness.catalog.refreshIfDue();
    expect(cardsetsRequests(harness.fake)).toBe(2);
    expect(harness.catalog.details()).toMatchObject({ cardSetsDatabaseVersion: '2.00' });
    expect(await harness.catalog.refreshIfDue()).toBe(false);
  });

  it('fetches a list stored by a clock that has since been set back', async () => {
    const harness = await startLoaded();
    harness.clock.now -= HOUR;
    expect(await harness.catalog.refreshIfDue()).toBe(true);
    expect(cardsetsRequests(harness.fake)).toBe(2);
  });

  it('keeps serving the list it has when a refresh fails, and says so in /status', async () => {
    const harness = await startLoaded();
    const before = harness.catalog.all();
    harness.clock.now += 25 * HOUR;
    harness.fake.server.mode = 'html500';
    await expect(harness.catalog.refreshIfDue()).rejects.toMatchObject({ kind: 'unavailable' });
    expect(harness.catalog.all()).toBe(before);
    expect(harness.catalog.resolve('LOB').kind).toBe('choices');
    expect(harness.catalog.details()).toMatchObject({ cardSetsLastError: 'unavailable' });
  });

  it('refuses a list too short to be the real one and keeps the one it has', async () => {
    const harness = await startLoaded();
    const before = harness.catalog.all().length;
    harness.fake.cardSets = harness.fake.cardSets.slice(0, 10);
    harness.clock.now += 25 * HOUR;
    await expect(harness.catalog.refreshIfDue()).rejects.toMatchObject({ kind: 'bad_response' });
    expect(harness.catalog.all()).toHaveLength(before);
  });

  it('replaces a stored list it cannot read or of another format, and leaves no temporary file', async () => {
    for (const content of ['{"format":"almanac-card-sets","setFormat":0,"databaseVersion":"1.00","fetchedAt":1,"sets":[]}', '{ truncated']) {
      const fake = await newFake();
      const dataDir = await newDataDir();
      await mkdir(join(dataDir, 'cards'), { recursive: true });
      await writeFile(join(dataDir, 'cards', CARD_SETS_FILE), content);
      await writeFile(join(dataDir, 'cards', `${CARD_SETS_FILE}.123.abc.tmp`), 'left by a crash');
      const harness = await startLoaded(fake, dataDir);
      expect(cardsetsRequests(fake)).toBe(1);
      expect(harness.catalog.all().length).toBeGreaterThan(900);
      expect((await readdir(join(dataDir, 'cards'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }
  });

  it('validates its options, naming the bad one', async () => {
    const harness = harnessOn(await newFake(), await newDataDir());
    const { client, database, dataDir } = harness;
    expect(() => new CardSetCatalog({ client, database, dataDir: '' })).toThrow(/"dataDir"/);
    expect(() => new CardSetCatalog({ client, database, dataDir, maxAgeMs: 0 })).toThrow(/"maxAgeMs"/);
    expect(() => new CardSetCatalog({ client, database, dataDir, minSets: Number.NaN })).toThrow(/"minSets"/);
  });
});

describe('CardSetCatalog lookups', () => {
  it('finds a set by exact name in any case, by code, and by key; a shared code lists every set using it', async () => {
    const { catalog } = await startLoaded();
    const lob = catalog.byName('legend of BLUE eyes  white dragon');
    expect(lob).toMatchObject({ name: LOB_SET.set_name, code: 'LOB', tcgDate: '2002-03-08', imageStem: 'LOB', cardCount: 126 });
    expect(catalog.byKey(lob!.key)).toBe(lob);
    expect(catalog.byCode('lob').map((set) => set.name)).toEqual([LOB_SET.set_name, SECOND_LOB_SET]);
    expect(catalog.byCode('NO-SUCH-CODE')).toEqual([]);
  });

  it('resolves typed input: a name, a unique code, a shared code, an autocomplete value, a typo, and noise', async () => {
    const { catalog } = await startLoaded();
    const lob = catalog.byName(LOB_SET.set_name)!;
    expect(catalog.resolve(' Legend of Blue Eyes White Dragon ')).toEqual({ kind: 'set', set: lob });
    expect(catalog.resolve('mrd')).toMatchObject({ kind: 'set', set: { name: 'Metal Raiders' } });
    const shared = catalog.resolve('LOB');
    expect(shared).toMatchObject({ kind: 'choices', sharedCode: 'LOB' });
    expect(shared.kind === 'choices' ? shared.candidates.map((set) => set.name) : []).toEqual([LOB_SET.set_name, SECOND_LOB_SET]);
    expect(catalog.resolve(setAutocompleteValue(lob))).toEqual({ kind: 'set', set: lob });
    expect(catalog.resolve(`set:${lob.key}`)).toEqual({ kind: 'set', set: lob });
    expect(catalog.resolve('metal raidres')).toMatchObject({ kind: 'set', set: { name: 'Metal Raiders' } });
    const broad = catalog.resolve('structure deck');
    expect(broad.kind).toBe('choices');
    expect(broad.kind === 'choices' ? broad.candidates.length : 0).toBeGreaterThan(1);
    expect(catalog.resolve('qqqqzzzzxxxx')).toEqual({ kind: 'none' });
    expect(catalog.resolve('   ')).toEqual({ kind: 'none' });
  });

  it('gives a name longer than an autocomplete value may be its key instead', () => {
    const set = { key: cardSetKey('x'.repeat(120)), name: 'x'.repeat(120), code: 'X' };
    expect(setAutocompleteValue(set)).toBe(`set:${set.key}`);
    expect(setAutocompleteValue({ ...set, name: 'Metal Raiders' })).toBe('Metal Raiders');
  });

  it('suggests by partial name, by code and with typos, the newest sets for empty input, locally', async () => {
    const { catalog, fake } = await startLoaded();
    const before = fake.server.requests.length;
    expect(catalog.suggest('legend of blue')[0]?.name).toBe(LOB_SET.set_name);
    expect(catalog.suggest('LOB').slice(0, 2).map((set) => set.name)).toEqual([LOB_SET.set_name, SECOND_LOB_SET]);
    expect(catalog.suggest('metal raidrs')[0]?.name).toBe('Metal Raiders');
    expect(catalog.suggest('battle pack', 5)).toHaveLength(5);
    const newest = catalog.suggest('', 25);
    expect(newest).toHaveLength(25);
    const dates = newest.map((set) => set.tcgDate ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    // Digits only: a set code such as "2020", never taken for a matcher id.
    expect(() => catalog.suggest('2020')).not.toThrow();
    expect(catalog.suggest('\u0000\u0001 ★')).toEqual([]);
    expect(fake.server.requests.length).toBe(before);
  });
});

describe('CardSetCatalog with its matcher built off the event loop', () => {
  it('installs a fetched list only once its matcher is built, the previous list answering until then, and matches as one built on it', async () => {
    const { buildMatcherTables } = bundledWorkerJobs();
    let release = () => {};
    let buildStarted = () => {};
    const nextBuild = () => new Promise<void>((resolve) => (buildStarted = resolve));
    const held: MatcherTablesBuild = async (...args) => {
      const released = new Promise<void>((resolve) => (release = resolve));
      buildStarted();
      await released;
      return buildMatcherTables(...args);
    };
    const nextLoad = () => new Promise<void>((resolve) => {
      const stop = harness.catalog.onLoad(() => {
        stop();
        resolve();
      });
    });
    const fake = await newFake();
    const harness = harnessOn(fake, await newDataDir(), { buildMatcherTables: held });
    let started = nextBuild();
    await harness.service.start();
    await started;
    // Fetched, its matcher not built yet: no list, so nothing half made is read.
    expect(harness.catalog.ready).toBe(false);
    expect(harness.catalog.suggest('legend of blue')).toEqual([]);
    release();
    expect(await harness.service.whenSetsReady(15_000)).toBe(true);
    expect(await harness.service.whenReady(15_000)).toBe(true);
    // Fetched before the database loaded: the list takes the version it loaded with.
    expect(await harness.catalog.refreshIfDue()).toBe(false);
    const first = harness.catalog.all();

    fake.version = '2.00';
    started = nextBuild();
    await harness.database.refresh();
    await started;
    // The new list is fetched; the old one answers every query until its matcher is in.
    expect(harness.catalog.all()).toBe(first);
    expect(harness.catalog.suggest('legend of blue')[0]?.name).toBe(LOB_SET.set_name);
    expect(harness.catalog.details()).toMatchObject({ cardSetsDatabaseVersion: '1.00' });
    const loaded = nextLoad();
    release();
    await loaded;
    expect(harness.catalog.details()).toMatchObject({ cardSetsDatabaseVersion: '2.00' });
    expect(harness.catalog.all()).not.toBe(first);

    // The same answers as the matcher built on the event loop (see "suggests by partial name" below).
    expect(harness.catalog.suggest('LOB').slice(0, 2).map((set) => set.name)).toEqual([LOB_SET.set_name, SECOND_LOB_SET]);
    expect(harness.catalog.suggest('metal raidrs')[0]?.name).toBe('Metal Raiders');
    expect(harness.catalog.resolve('metal raidrs')).toMatchObject({ kind: 'set', set: { name: 'Metal Raiders' } });
  });
});

describe('CardService and card sets', () => {
  it('lists a set’s cards from the database’s printings, one entry per card with its numbers and rarities, in number order', async () => {
    const { service, catalog } = await startLoaded();
    const lob = catalog.byName(LOB_SET.set_name)!;
    const listing = service.setListing(lob);
    expect(listing.length).toBeGreaterThan(1);
    expect(new Set(listing.map((entry) => entry.card.id)).size).toBe(listing.length);
    const darkMagician = listing.find((entry) => entry.card.id === DARK_MAGICIAN)!;
    expect(darkMagician.numbers).toEqual(['LOB-005', 'LOB-E003', 'LOB-EN005']);
    expect(darkMagician.rarities).toEqual(['Ultra Rare']);
    const firsts = listing.map((entry) => entry.numbers[0]!);
    expect(firsts).toEqual([...firsts].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
    expect(service.setListing(catalog.byName(SECOND_LOB_SET)!)).toEqual([]);
  });

  it('lists a card’s printings oldest TCG release first, with the dates the set list knows', async () => {
    const { service } = await startLoaded();
    const blueEyes = service.byId(BLUE_EYES)!;
    const printings = service.printings(blueEyes);
    expect(printings).toHaveLength(blueEyes.sets.length);
    const dated = printings.filter((printing) => printing.tcgDate !== undefined);
    expect(dated.length).toBeGreaterThan(printings.length / 2);
    expect(printings.slice(0, dated.length)).toEqual(dated);
    const dates = dated.map((printing) => printing.tcgDate!);
    expect(dates).toEqual([...dates].sort());
    expect(printings.find((printing) => printing.setCode === 'LOB-001')).toMatchObject({ tcgDate: '2002-03-08', rarity: 'Ultra Rare' });
  });

  it('attaches a set image after one download, and shows a set without one without asking', async () => {
    const { service, catalog, fake } = await startLoaded();
    const lob = catalog.byName(LOB_SET.set_name)!;
    const first = await service.art(lob);
    expect(first?.format).toBe('jpg');
    expect(await service.art(catalog.byName(SECOND_LOB_SET)!)).toBeNull();
    expect(await service.art(lob)).toEqual(first);
    expect(fake.requestsTo('/images/sets/').map((request) => request.path)).toEqual(['/images/sets/LOB.jpg']);
    // An image the host does not have: the set is shown without it.
    expect(await service.art({ ...lob, imageStem: 'MISSING' })).toBeNull();
  });
});
