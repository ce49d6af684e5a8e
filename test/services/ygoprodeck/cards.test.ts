import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translatedCard } from '../../fakes/card-translations.js';
import { startHarness, startLoaded, stopHarness, type Harness } from '../../helpers/card-service-harness.js';

/**
 * CardService (src/services/ygoprodeck/cards.ts) before its database loads, and the tests that only
 * read a loaded one, sharing it; cards-own-load.test.ts holds those that need a load of their own.
 */

const DARK_MAGICIAN = 46986414;
const BLUE_EYES = 89631139;
const BLUE_EYES_ALT_ART = 89631140;

let harness: Harness;
/** A harness the tests of one describe block share: started once, closed after the block (not after each test). */
let shared: Harness | undefined;

afterEach(async () => {
  if (harness !== shared) await stopHarness(harness);
});

function cardinfoRequests(): number {
  return harness.fake.requestsTo('/api/v7/cardinfo.php').length;
}

describe('CardService before the card database has loaded', () => {
  beforeEach(async () => {
    harness = await startHarness();
  });

  it('suggests nothing, finds nothing locally and picks no random card, without asking upstream', async () => {
    const { service } = harness;
    expect(service.ready).toBe(false);
    expect(service.suggest('dark magician')).toEqual([]);
    expect(service.search('dark magician')).toEqual({ cards: [], total: 0 });
    expect(await service.random('channel')).toBeUndefined();
    expect(harness.fake.server.requests).toHaveLength(0);
  });

  it('asks upstream for an exact name or passcode, and finds nothing for anything else', async () => {
    const { service } = harness;
    await expect(service.resolve('dark magician')).resolves.toMatchObject({ kind: 'card', by: 'name', card: { id: DARK_MAGICIAN } });
    await expect(service.resolve(String(BLUE_EYES))).resolves.toMatchObject({ kind: 'card', by: 'id', card: { id: BLUE_EYES } });
    await expect(service.resolve('dark magican')).resolves.toEqual({ kind: 'none' });
    const lookups = harness.fake.requestsTo('/api/v7/cardinfo.php').map((request) => request.query.get('name') ?? request.query.get('id'));
    expect(lookups).toEqual(['dark magician', String(BLUE_EYES), 'dark magican']);
  });

  it('reports not ready after the wait when the database cannot load', async () => {
    harness.fake.blocked = true;
    await harness.service.start();
    expect(await harness.service.whenReady(300)).toBe(false);
  });

  it('waits for the database through the pace it is given, and says false when the wait ends without it', async () => {
    harness.fake.blocked = true;
    await harness.service.start();
    const paced: Promise<boolean>[] = [];
    expect(await harness.service.waitForDatabase((loaded) => (paced.push(loaded), loaded))).toBe(false);
    expect(paced).toHaveLength(1);
  });
});

describe('CardService with the card database loaded', () => {
  // Loading the 300 cards in five languages is most of a test's CPU: these tests only read, each
  // channel of random cards its own, so they share one load.
  beforeAll(async () => {
    shared = await startLoaded({ recentPerChannel: 10 });
  });
  beforeEach(() => {
    harness = shared!;
  });
  afterAll(async () => {
    await stopHarness(shared);
    shared = undefined;
  });

  it('answers a wait for the database at once, without pacing it, once loaded', async () => {
    let paced = false;
    expect(await harness.service.waitForDatabase(async (loaded) => ((paced = true), loaded))).toBe(true);
    expect(paced).toBe(false);
  });

  it('matches typos locally: autocomplete never asks upstream', () => {
    const before = harness.fake.server.requests.length;
    expect(harness.service.suggest('dark magican')[0]?.id).toBe(DARK_MAGICIAN);
    expect(harness.service.suggest('blue eyes white')[0]?.id).toBe(BLUE_EYES);
    expect(harness.service.suggest('ash blosom')[0]?.name).toBe('Ash Blossom & Joyous Spring');
    expect(harness.service.suggest('magician', 3)).toHaveLength(3);
    expect(harness.service.suggest('')).toEqual([]);
    expect(harness.fake.server.requests.length).toBe(before);
  });

  it('resolves a passcode, an alternate-art id and an exact name in any case without asking upstream', async () => {
    const before = cardinfoRequests();
    await expect(harness.service.resolve(String(DARK_MAGICIAN))).resolves.toMatchObject({ kind: 'card', by: 'id', card: { id: DARK_MAGICIAN } });
    await expect(harness.service.resolve(String(BLUE_EYES_ALT_ART))).resolves.toMatchObject({ kind: 'card', card: { id: BLUE_EYES } });
    await expect(harness.service.resolve('  DARK magician ')).resolves.toMatchObject({ kind: 'card', by: 'name', card: { id: DARK_MAGICIAN } });
    expect(cardinfoRequests()).toBe(before);
  });

  it('opens a clearly best match, offers choices when several are close, and finds nothing for noise', async () => {
    await expect(harness.service.resolve('dark magican')).resolves.toMatchObject({ kind: 'card', by: 'match', card: { id: DARK_MAGICIAN } });
    // Eleven "Abyss Actor - …" cards start with those words equally well.
    const actors = await harness.service.resolve('abyss actor');
    expect(actors.kind).toBe('choices');
    const candidates = actors.kind === 'choices' ? actors.candidates : [];
    expect(candidates.length).toBeGreaterThan(1);
    expect(candidates.length).toBeLessThanOrEqual(25);
    // Every "Abyss Actor - …" card comes before any weaker match.
    const actorCount = candidates.filter((card) => card.name.startsWith('Abyss Actor')).length;
    expect(actorCount).toBeGreaterThan(1);
    expect(candidates.slice(0, actorCount).every((card) => card.name.startsWith('Abyss Actor'))).toBe(true);
    await expect(harness.service.resolve('qqqqzzzzxxxx')).resolves.toEqual({ kind: 'none' });
    await expect(harness.service.resolve('   ')).resolves.toEqual({ kind: 'none' });
  });

  it('searches by name and narrows by type, attribute and archetype', () => {
    const all = harness.service.search('dragon', {}, 500);
    expect(all.total).toBe(all.cards.length);
    expect(all.total).toBeGreaterThan(25);
    const firstPage = harness.service.search('dragon');
    expect(firstPage.cards).toHaveLength(25);
    expect(firstPage.total).toBe(all.total);

    const links = harness.service.search('dragon', { type: 'link' }, 500);
    expect(links.total).toBeGreaterThan(0);
    expect(links.total).toBeLessThan(all.total);
    expect(links.cards.every((card) => card.typeLine.split(' / ').includes('Link'))).toBe(true);

    const spells = harness.service.search('dragon', { type: 'spell' }, 500);
    expect(spells.cards.every((card) => card.kind === 'spell')).toBe(true);

    const dark = harness.service.search('dragon', { attribute: 'DARK' }, 500);
    expect(dark.total).toBeGreaterThan(0);
    expect(dark.cards.every((card) => card.attribute === 'DARK')).toBe(true);

    const abyssActor = harness.service.search('abyss', { archetype: 'Abyss Actor' }, 500);
    expect(abyssActor.total).toBeGreaterThan(1);
    expect(abyssActor.cards.every((card) => card.archetype === 'Abyss Actor')).toBe(true);
    expect(harness.service.search('dragon', { type: 'skill', attribute: 'DARK' })).toEqual({ cards: [], total: 0 });
  });

  it('searches effect texts read from the snapshots, in the user’s language for translated cards, names first', () => {
    const texts = (id: number, language?: 'fr') => {
      const description = language === undefined ? harness.database.byId(id)?.description : harness.database.translation(id, language)?.description;
      return [description?.text, description?.pendulumEffect, description?.monsterEffect].join('\n').toLowerCase();
    };
    const holding = (word: string, language?: 'fr') =>
      harness.database.summaries().filter((card) => {
        const own = language !== undefined && harness.database.translation(card.id, language) !== undefined;
        return new RegExp(`(^|[^\\p{L}\\p{N}])${word}`, 'u').test(texts(card.id, own ? language : undefined));
      });
    const english = harness.service.search({ words: '', phrases: [], text: ['destroy'] }, {}, 1_000);
    expect(english.total).toBe(holding('destroy').length);
    expect(english.total).toBeGreaterThan(10);
    expect(english.cards.map((card) => card.views)).toEqual(english.cards.map((card) => card.views).sort((a, b) => b - a));
    const french = harness.service.search({ words: '', phrases: [], text: ['détruisez'] }, {}, 1_000, 'fr');
    expect(new Set(french.cards.map((card) => card.id))).toEqual(new Set(holding('détruisez', 'fr').map((card) => card.id)));
    expect(french.total).toBeGreaterThan(10);

    const strong = harness.service.search({ words: '', phrases: ['destroy'], text: [] }, { atk: { min: 2500, max: 99_999 }, race: 'Dragon' }, 1_000);
    expect(strong.total).toBeGreaterThan(0);
    expect(strong.cards.every((card) => card.race === 'Dragon' && typeof card.atk === 'number' && card.atk >= 2500)).toBe(true);
    // Loose words alone search the names only; with a text term, the named cards come first, then
    // those whose texts hold the words too.
    const named = harness.service.search('graveyard', {}, 1_000);
    const byName = new Set(harness.service.suggest('graveyard', 1_000).map((card) => card.id));
    expect(new Set(named.cards.map((card) => card.id))).toEqual(byName);
    const both = harness.service.search({ words: 'graveyard', phrases: [], text: ['destroy'] }, {}, 1_000);
    const firstByText = both.cards.findIndex((card) => !byName.has(card.id));
    expect(firstByText).toBeGreaterThanOrEqual(0);
    expect(both.cards.every((card) => /(^|[^a-z])destroy/.test(texts(card.id)))).toBe(true);
    expect(both.cards.slice(firstByText).every((card) => texts(card.id).includes('graveyard'))).toBe(true);
  });

  it('names archetypes in the database’s spelling and suggests those starting with the input first', () => {
    expect(harness.service.archetype('abyss actor')).toBe('Abyss Actor');
    expect(harness.service.archetype('no such archetype')).toBeUndefined();
    const suggestions = harness.service.archetypes('ab');
    expect(suggestions.length).toBeGreaterThan(1);
    const firstContaining = suggestions.findIndex((name) => !name.toLowerCase().startsWith('ab'));
    if (firstContaining >= 0) expect(suggestions.slice(firstContaining).every((name) => !name.toLowerCase().startsWith('ab'))).toBe(true);
    expect(suggestions.every((name) => name.toLowerCase().includes('ab'))).toBe(true);
  });

  it('never repeats any of a channel’s last 10 random cards, and never asks upstream for one', async () => {
    const before = harness.fake.server.requests.length;
    const picks: number[] = [];
    for (let draw = 0; draw < 200; draw++) {
      const card = await harness.service.random('channel-a');
      expect(card).toBeDefined();
      expect(picks.slice(-10)).not.toContain(card!.id);
      picks.push(card!.id);
    }
    expect(new Set(picks).size).toBeGreaterThan(100);
    // Another channel has its own history.
    expect(await harness.service.random('channel-b')).toBeDefined();
    expect(harness.fake.server.requests.length).toBe(before);
  });

  it('filters random cards: never one of the last 10 while more than 10 match, cycling through fewer, nothing when none does', async () => {
    const before = harness.fake.server.requests.length;
    const count = (filters: Parameters<typeof harness.service.search>[1]) => harness.service.search('', filters, 500).total;
    const many = { type: 'xyz' as const };
    expect(count(many)).toBeGreaterThan(10);
    const manyPicks: number[] = [];
    for (let draw = 0; draw < 40; draw++) {
      const card = (await harness.service.random('filtered', many))!;
      expect(card.typeLine).toContain('Xyz');
      expect(manyPicks.slice(-10)).not.toContain(card.id);
      manyPicks.push(card.id);
    }
    const few = { type: 'skill' as const, format: 'duellinks' as const };
    const matching = count(few);
    expect(matching).toBeGreaterThan(1);
    expect(matching).toBeLessThan(11);
    const cycle: number[] = [];
    for (let draw = 0; draw < matching * 3; draw++) cycle.push((await harness.service.random('few', few))!.id);
    // Every match once per round, in the same order each round.
    expect(new Set(cycle.slice(0, matching)).size).toBe(matching);
    expect(cycle.slice(matching, 2 * matching)).toEqual(cycle.slice(0, matching));
    expect(await harness.service.random('few', { type: 'skill', format: 'tcg' })).toBeUndefined();
    const rankFour = (await harness.service.random('rank', { level: 4, type: 'xyz' }))!;
    expect(rankFour.rank).toBe(4);
    expect(harness.service.knowsFormats).toBe(true);
    expect(harness.fake.server.requests.length).toBe(before);
  });

  it('searches by filters alone, most viewed first', () => {
    const result = harness.service.search('', { format: 'duellinks' }, 25);
    expect(result.cards.length).toBeGreaterThan(0);
    expect(result.cards.every((card) => card.formats.includes('Duel Links'))).toBe(true);
    const views = result.cards.map((card) => card.views);
    expect(views).toEqual([...views].sort((left, right) => right - left));
  });

  it('translates from the local language database without a request, keeping the rest of the English card', async () => {
    const english = harness.service.byId(DARK_MAGICIAN)!;
    const upstream = translatedCard(harness.fake.cards.find((card) => card.id === DARK_MAGICIAN)!, 'fr')!;
    const before = cardinfoRequests();
    const french = await harness.service.localize(english, 'fr');
    expect(french).toMatchObject({ language: 'fr', englishName: 'Dark Magician', name: upstream.name, atk: 2500, prices: english.prices });
    expect(french!.name).not.toBe('Dark Magician');
    expect(french!.description.text).toBe(upstream.desc.trim());
    expect(cardinfoRequests()).toBe(before);
  });

  it('gives no translation, without a request, for a card the language database does not have', async () => {
    const untranslated = harness.fake.cards.find((card) => translatedCard(card, 'de') === undefined)!;
    const before = cardinfoRequests();
    expect(await harness.service.localize(harness.service.byId(untranslated.id)!, 'de')).toBeUndefined();
    expect(cardinfoRequests()).toBe(before);
  });

  it('reports the card database and image store in YGOPRODeck’s health', () => {
    const health = harness.service.health();
    expect(health.upstream).toBe('ygoprodeck');
    expect(health.details).toMatchObject({ cardDatabaseVersion: '1.00', cardDatabaseSize: 300 });
    expect(health.details).toHaveProperty('cardImages');
  });
});
