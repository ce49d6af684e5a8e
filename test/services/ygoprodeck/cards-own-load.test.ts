import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RawCard } from '../../../src/cards/normalise-card.js';
import { wordIndexBuilt } from '../../../src/cards/text-search.js';
import { CardDatabase } from '../../../src/services/ygoprodeck/card-database.js';
import { CardImageStore } from '../../../src/services/ygoprodeck/card-images.js';
import { CardService } from '../../../src/services/ygoprodeck/cards.js';
import { YGOPRODECK_UPSTREAM_LIMIT } from '../../../src/services/ygoprodeck/ygoprodeck-limits.js';
import { YgoprodeckClient } from '../../../src/services/ygoprodeck/ygoprodeck.js';
import { translatedCard } from '../../fakes/card-translations.js';
import { loadCardDump } from '../../fakes/ygoprodeck.js';
import { everyLanguageMatched, startHarness, startLoaded, stopHarness, type Harness } from '../../helpers/card-service-harness.js';
import { LogCapture } from '../../helpers/log-capture.js';

/**
 * CardService (src/services/ygoprodeck/cards.ts), the tests that need a load of their own: they change
 * what they read (the fake's cards and version, its blocking, the art store), run at production's
 * pace, restart on the snapshots, or load without languages. cards.test.ts holds those that share one.
 */

const DARK_MAGICIAN = 46986414;
const BLUE_EYES = 89631139;
const MYSTICAL_SPACE_TYPHOON = 5318639;

let harness: Harness;

afterEach(async () => {
  await stopHarness(harness);
});

describe('CardService with the card database loaded, one load per test', () => {
  // These change what they read (the fake's cards and version, its blocking, the art store) or need
  // the effect texts not yet indexed when they start.
  beforeEach(async () => {
    harness = await startLoaded({ recentPerChannel: 10 });
  });
  it('answers every search the same once the texts are indexed as while it read them', async () => {
    const searches: [Parameters<typeof harness.service.search>[0], Parameters<typeof harness.service.search>[1], 'fr'?][] = [
      [{ words: '', phrases: [], text: ['destroy'] }, {}],
      [{ words: '', phrases: [], text: ['monster'] }, {}],
      [{ words: '', phrases: ['destroy all'], text: [] }, { atk: { min: 2500, max: 99_999 } }],
      [{ words: 'dark magician', phrases: [], text: [] }, {}],
      [{ words: '', phrases: [], text: ['quick-play'] }, {}],
      [{ words: '', phrases: [], text: ['détruisez'] }, {}, 'fr'],
      [{ words: '', phrases: [], text: ['destroy', 'spellcaster'] }, {}],
      [{ words: 'magician', phrases: [], text: ['destroy'] }, {}],
    ];
    const run = () => searches.map(([terms, filters, language]) => harness.service.search(terms, filters, 1_000, language).cards.map((card) => card.id));
    const read = run();
    await Promise.all([wordIndexBuilt(harness.database.effectTexts()!), wordIndexBuilt(harness.database.effectTexts('fr')!)]);
    expect(run()).toEqual(read);
    expect(read.every((ids) => ids.length > 0)).toBe(true);
  });

  it('serves card art from the store after one download', async () => {
    const card = harness.service.byId(DARK_MAGICIAN)!;
    const first = await harness.service.art(card);
    expect(first?.format).toBe('jpg');
    expect(first?.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    await harness.service.art(card);
    expect(harness.fake.requestsTo('/images/')).toHaveLength(1);
  });

  it('gives no art, without failing, when the image cannot be had', async () => {
    const card = harness.service.byId(DARK_MAGICIAN)!;
    expect(await harness.service.art({ ...card, imageIds: [123_456_789] })).toBeNull();
    harness.fake.blocked = true;
    expect(await harness.service.art(harness.service.byId(BLUE_EYES)!)).toBeNull();
  });

  it('rebuilds the matcher when the database reloads with a new version', async () => {
    expect(harness.service.suggest('mystical space typhoon')[0]?.id).not.toBe(MYSTICAL_SPACE_TYPHOON);
    const typhoon = loadCardDump().find((card) => card.id === MYSTICAL_SPACE_TYPHOON) as RawCard;
    harness.fake.cards = [...harness.fake.cards, typhoon];
    harness.fake.version = '2.00';
    await expect(harness.database.refresh()).resolves.toMatchObject({ updated: true, version: '2.00' });
    // The languages came after English at 2.00: a matcher holding all of them holds the new card too.
    await everyLanguageMatched(harness);
    expect(harness.service.suggest('mystical space typhon')[0]?.id).toBe(MYSTICAL_SPACE_TYPHOON);
    expect(harness.service.suggest('mst')[0]?.id).toBe(MYSTICAL_SPACE_TYPHOON);
  });

});

describe('CardService options and production limits', () => {
  it('refuses a bad option with its name', async () => {
    harness = await startHarness();
    const { database, client } = harness;
    const images = new CardImageStore({ client, dataDir: harness.dataDir });
    expect(() => new CardService({ database, images, client, recentPerChannel: -1 })).toThrow(/"recentPerChannel"/);
    expect(() => new CardService({ database, images, client, recentPerChannel: 2.5 })).toThrow(/"recentPerChannel"/);
  });

  it('keeps a burst of 25 card-art downloads under the real limiter inside YGOPRODeck’s 20 requests/s, as its server counts them', async () => {
    harness = await startLoaded({}, {}, {});
    const cards = harness.service.search('a', {}, 25).cards;
    expect(cards).toHaveLength(25);
    const arts = await Promise.all(cards.map((card) => harness.service.art(card)));
    expect(arts.every((art) => art !== null)).toBe(true);
    expect(harness.fake.blocked).toBe(false);
    const peak = harness.fake.server.maxInWindow(YGOPRODECK_UPSTREAM_LIMIT.windowMs, '/images/');
    expect(peak).toBeGreaterThan(1);
    // The limiter aims at half the limit (8/s); the server sees requests bunched by scheduling delays, the more the busier the machine.
    expect(peak).toBeLessThan(YGOPRODECK_UPSTREAM_LIMIT.maxRequests);
  });
});

describe('CardService restarted on the snapshots of all five languages', () => {
  it('builds the matcher once, with every language’s names, and again when a language changes', async () => {
    harness = await startLoaded();
    await harness.service.close();
    const log = new LogCapture();
    const client = new YgoprodeckClient({ baseUrl: harness.fake.url, imagesBaseUrl: harness.fake.imagesUrl });
    const database = new CardDatabase({ client, dataDir: harness.dataDir, minCards: 100 });
    const images = new CardImageStore({ client, dataDir: harness.dataDir });
    harness = { ...harness, client, database, service: new CardService({ database, images, client, logger: pino(log) }) };
    await harness.service.start();
    const builds = () => log.entries().filter((entry) => entry.msg === 'card matcher rebuilt').length;
    expect(builds()).toBe(1);
    const germanName = translatedCard(harness.fake.cards.find((card) => card.id === DARK_MAGICIAN)!, 'de')!.name;
    expect(harness.service.suggest(germanName, 1, 'de').map((card) => card.id)).toEqual([DARK_MAGICIAN]);

    harness.fake.version = '2.00';
    expect(await database.refresh()).toEqual({ updated: true, version: '2.00' });
    // English, then each language's new names.
    expect(builds()).toBe(1 + 1 + 4);
  });
});

describe('CardService while a language database has never loaded', () => {
  beforeEach(async () => {
    harness = await startLoaded({}, { languages: [] });
  });

  it('asks upstream for the translation, once per card and language (cached)', async () => {
    const english = harness.service.byId(DARK_MAGICIAN)!;
    const upstream = translatedCard(harness.fake.cards.find((card) => card.id === DARK_MAGICIAN)!, 'fr')!;
    const french = await harness.service.localize(english, 'fr');
    expect(french).toMatchObject({ language: 'fr', englishName: 'Dark Magician', name: upstream.name, atk: 2500, prices: english.prices });
    await harness.service.localize(english, 'fr');
    const translations = harness.fake.requestsTo('/api/v7/cardinfo.php').filter((request) => request.query.get('language') === 'fr');
    expect(translations.map((request) => request.query.get('id'))).toEqual([String(DARK_MAGICIAN)]);
  });
});
