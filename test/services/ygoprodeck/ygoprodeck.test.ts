import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Card } from '../../../src/cards/card.js';
import { isUpstreamError } from '../../../src/interaction/upstream-error.js';
import { YGOPRODECK_CIRCUIT, YGOPRODECK_LIMITS, YGOPRODECK_UPSTREAM_LIMIT } from '../../../src/services/ygoprodeck/ygoprodeck-limits.js';
import { YgoprodeckClient, type YgoprodeckClientOptions } from '../../../src/services/ygoprodeck/ygoprodeck.js';
import { translatedCard } from '../../fakes/card-translations.js';
import { normaliseCardSets } from '../../helpers/card-sets.js';
import { FakeServer, htmlPage, json, type FakeResponse } from '../../fakes/fake-server.js';
import { QUIRK_CARD_IDS, dumpCardSets, fakeJpeg, startFakeYgoprodeck, type FakeYgoprodeck } from '../../fakes/ygoprodeck.js';

let fake: FakeYgoprodeck;
const clients: YgoprodeckClient[] = [];
const servers: FakeServer[] = [];

beforeEach(async () => {
  fake = await startFakeYgoprodeck();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await fake.close();
});

function clientFor(baseUrl: string, options: Partial<YgoprodeckClientOptions> = {}): YgoprodeckClient {
  const client = new YgoprodeckClient({ baseUrl, imagesBaseUrl: `${baseUrl}/images`, ...options });
  clients.push(client);
  return client;
}

/** A bare server answering every request with `response`, for shapes the faithful fake never sends. */
async function serverAnswering(response: FakeResponse): Promise<FakeServer> {
  const server = await new FakeServer(() => response).start();
  servers.push(server);
  return server;
}

const cardinfoRequests = () => fake.requestsTo('/api/v7/cardinfo.php');

describe('card lookups', () => {
  it('looks a card up by id with misc=yes and returns the normalised card', async () => {
    const card = await clientFor(fake.url).cardById(QUIRK_CARD_IDS.normalMonster);
    expect(card).toMatchObject({ id: 46986414, name: 'Dark Magician', kind: 'monster', level: 7, atk: 2500, def: 2100 });
    expect(card.views).toBeGreaterThan(0);
    expect(card.konamiId).toBeGreaterThan(0);
    expect(card.formats).toEqual(['TCG', 'OCG', 'Common Charity', 'Master Duel']);
    const [request] = cardinfoRequests();
    expect(Object.fromEntries(request!.query)).toEqual({ id: '46986414', misc: 'yes' });
    expect(request!.headers['user-agent']).toMatch(/^Almanac\//);
  });

  it('looks a card up by exact name, case-insensitively, URL-encoding every special character', async () => {
    const client = clientFor(fake.url);
    expect((await client.cardByName('ash blossom & joyous spring')).id).toBe(QUIRK_CARD_IDS.ampersandName);
    expect((await client.cardByName('Crawling Dragon #2')).id).toBe(QUIRK_CARD_IDS.hashName);
    expect((await client.cardByName('D/D Ark')).id).toBe(QUIRK_CARD_IDS.slashName);
    expect((await client.cardByName('Success Probability 0%')).name).toBe('Success Probability 0%');
    const urls = cardinfoRequests().map((request) => request.url);
    expect(urls[0]).toContain('name=ash+blossom+%26+joyous+spring');
    expect(urls[1]).toContain('name=crawling+dragon+%232');
    expect(urls[3]).toContain('0%25');
    expect(urls.every((url) => url.startsWith('/api/v7/cardinfo.php?'))).toBe(true);
  });

  it('keeps path-like names inside the query string', async () => {
    await expect(clientFor(fake.url).cardByName('../../checkDBVer.php')).rejects.toMatchObject({ kind: 'not_found' });
    expect(fake.server.requests.map((request) => request.path)).toEqual(['/api/v7/cardinfo.php']);
  });

  it('caches lookups: a name lookup also answers the id lookup', async () => {
    const client = clientFor(fake.url);
    const byName = await client.cardByName('Dark Magician');
    expect(await client.cardByName('DARK MAGICIAN')).toBe(byName);
    expect(await client.cardById(byName.id)).toBe(byName);
    expect(cardinfoRequests()).toHaveLength(1);
    expect(client.health().caches[0]).toMatchObject({ name: 'ygoprodeck-cards', hits: 2, misses: 1 });
  });

  it.each([false, true])('maps the no-match 400 to not_found (legacy text: %s) and remembers it', async (legacy) => {
    fake.legacyNoMatchText = legacy;
    const client = clientFor(fake.url);
    await expect(client.cardByName('No Such Card')).rejects.toMatchObject({ kind: 'not_found', upstream: 'ygoprodeck' });
    await expect(client.cardByName('no such card')).rejects.toMatchObject({ kind: 'not_found' });
    expect(cardinfoRequests()).toHaveLength(1);
  });

  it('maps other 400 JSON errors to invalid_input, keeping the upstream explanation', async () => {
    const message =
      "Attribute value of wood is invalid. Please use a correct attribute value. Attribute accepts 'dark', 'earth', 'fire', 'light', 'water', 'wind' or 'divine' and is not case sensitive.";
    const server = await serverAnswering(json(400, { error: message }));
    const error = await clientFor(server.url).cardById(1).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'invalid_input', status: 400 });
    expect((error as Error).message).toContain('Attribute value of wood is invalid');
  });

  it.each<[string, FakeResponse]>([
    ['a 400 without a JSON error', { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' }],
    ['a 200 that is not JSON', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":[{"id":1' }],
    ['a 200 without data', json(200, { cards: [] })],
    ['a 200 with an empty data array', json(200, { data: [] })],
    ['a 200 with an invalid card', json(200, { data: [{ id: 'x', name: 'Dark Magician' }] })],
    ['an unexpected redirect', { status: 301, headers: { location: 'https://elsewhere.example/' } }],
  ])('maps %s to bad_response without opening the circuit', async (_label, response) => {
    const server = await serverAnswering(response);
    const client = clientFor(server.url);
    await expect(client.cardById(1)).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(client.cardById(2)).rejects.toMatchObject({ kind: 'bad_response' });
    expect(server.requests).toHaveLength(2);
    expect(client.health().limiter.pausedUntil).toBeNull();
  });

  it("maps the fake's malformed mode (a truncated body) to bad_response", async () => {
    fake.server.mode = 'malformed';
    await expect(clientFor(fake.url).cardById(QUIRK_CARD_IDS.normalMonster)).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('refuses invalid ids and names before any request', async () => {
    const client = clientFor(fake.url);
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 60]) {
      await expect(client.cardById(id)).rejects.toMatchObject({ kind: 'invalid_input' });
    }
    for (const name of ['', '   ', 'Dark Magician|Blue-Eyes White Dragon', 'Dark\nMagician', 'x'.repeat(201)]) {
      await expect(client.cardByName(name)).rejects.toMatchObject({ kind: 'invalid_input' });
    }
    await expect(client.localized(QUIRK_CARD_IDS.normalMonster, 'es' as 'fr')).rejects.toMatchObject({ kind: 'invalid_input' });
    expect(fake.server.requests).toHaveLength(0);
  });

  it('validates its options, naming the bad one', () => {
    expect(() => new YgoprodeckClient({ baseUrl: 'not a url' })).toThrow(/"baseUrl"/);
    expect(() => new YgoprodeckClient({ baseUrl: fake.url, imagesBaseUrl: 'ftp://images.example' })).toThrow(/"imagesBaseUrl"/);
    expect(() => new YgoprodeckClient({ baseUrl: fake.url, imagesBaseUrl: 'https://user:pass@images.example' })).toThrow(/"imagesBaseUrl"/);
    expect(() => new YgoprodeckClient({ baseUrl: fake.url, limits: { minTimeMs: -5 } })).toThrow(/"minTimeMs"/);
  });
});

describe('localized cards', () => {
  it('fetches the translation by id with the language parameter, cached', async () => {
    const client = clientFor(fake.url);
    const card = await client.localized(QUIRK_CARD_IDS.normalMonster, 'fr');
    const upstream = translatedCard(fake.cards.find((raw) => raw.id === QUIRK_CARD_IDS.normalMonster)!, 'fr')!;
    expect(card).toMatchObject({ id: 46986414, language: 'fr', name: upstream.name, englishName: 'Dark Magician' });
    expect(card.description.text).toBe(upstream.desc.trim());
    await client.localized(QUIRK_CARD_IDS.normalMonster, 'fr');
    await client.localized(QUIRK_CARD_IDS.normalMonster, 'de');
    expect(cardinfoRequests().map((request) => request.query.get('language'))).toEqual(['fr', 'de']);
  });
});

describe('language databases', () => {
  it('downloads a language’s whole database with the language parameter alone', async () => {
    const client = clientFor(fake.url);
    const download = await client.downloadTexts('pt');
    expect(cardinfoRequests().map((request) => [...request.query])).toEqual([[['language', 'pt']]]);
    expect(download.ids.length).toBe(fake.cards.filter((card) => translatedCard(card, 'pt') !== undefined).length);
    expect(download.names[download.ids.indexOf(QUIRK_CARD_IDS.normalMonster)]).toBe(
      translatedCard(fake.cards.find((card) => card.id === QUIRK_CARD_IDS.normalMonster)!, 'pt')!.name,
    );
    await expect(client.downloadTexts('es' as 'pt')).rejects.toMatchObject({ kind: 'invalid_input' });
  });
});

describe('database version and download', () => {
  it('reads checkDBVer.php, whose version is a string', async () => {
    fake.version = '42.01';
    expect(await clientFor(fake.url).databaseVersion()).toEqual({ version: '42.01', lastUpdate: fake.lastUpdate });
    expect(fake.requestsTo('/api/v7/checkDBVer.php')[0]!.url).toBe('/api/v7/checkDBVer.php');
  });

  it('accepts a numeric version and refuses an answer without one', async () => {
    const numeric = await serverAnswering(json(200, [{ database_version: 42.5 }]));
    expect(await clientFor(numeric.url).databaseVersion()).toEqual({ version: '42.5' });
    const empty = await serverAnswering(json(200, [{}]));
    await expect(clientFor(empty.url).databaseVersion()).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('downloads the whole database with misc=yes and normalises it', async () => {
    const download = await clientFor(fake.url).downloadDatabase();
    const cards = download.body.toString().trimEnd().split('\n').map((line) => JSON.parse(line) as Card);
    expect(cards).toHaveLength(fake.cards.length);
    expect(cards.map((card) => card.id)).toEqual(download.ids);
    expect(download.skipped).toBe(0);
    expect(cards.every((card) => card.views > 0 && card.konamiId !== undefined)).toBe(true);
    expect(Object.fromEntries(fake.fullDownloads()[0]!.query)).toEqual({ misc: 'yes' });
  });
});

describe('card sets', () => {
  it('reads cardsets.php in slices as it would in one go: the real list, a bad entry and a repeated name left out and counted', async () => {
    const real = dumpCardSets();
    const answered = [...real, { set_name: '', set_code: 'X' }, { ...real[0]!, set_code: 'DUP' }];
    const server = await serverAnswering(json(200, answered));
    const list = await clientFor(server.url).cardSets();
    const inOneGo = normaliseCardSets(answered);
    expect(list).toEqual(inOneGo);
    expect(list.sets.length).toBeGreaterThan(900);
    expect(list.sets.some((set) => set.code === 'DUP')).toBe(false);
    expect(list.skipped).toBe(normaliseCardSets(real).skipped + 2);
  });
});

describe('images', () => {
  it('downloads an image from the image host path for each size', async () => {
    const client = clientFor(fake.url);
    expect(await client.image(QUIRK_CARD_IDS.normalMonster, 'full')).toEqual(fakeJpeg('cards/46986414'));
    expect(await client.image(QUIRK_CARD_IDS.normalMonster, 'small')).toEqual(fakeJpeg('cards_small/46986414'));
    expect(await client.image(89631140, 'cropped')).toEqual(fakeJpeg('cards_cropped/89631140'));
    expect(fake.requestsTo('/images/').map((request) => request.path)).toEqual([
      '/images/cards/46986414.jpg',
      '/images/cards_small/46986414.jpg',
      '/images/cards_cropped/89631140.jpg',
    ]);
  });

  it('maps a missing image to not_found without opening the circuit', async () => {
    const client = clientFor(fake.url);
    await expect(client.image(12345, 'full')).rejects.toMatchObject({ kind: 'not_found' });
    await client.image(QUIRK_CARD_IDS.normalMonster, 'full');
    expect(fake.requestsTo('/images/')).toHaveLength(2);
  });
});

describe('circuit breaker', () => {
  it.each([403, 429] as const)('a %s opens the circuit for an hour: nothing reaches YGOPRODeck while it is open', async (status) => {
    const client = clientFor(fake.url);
    fake.blocked = true;
    fake.blockStatus = status;
    const error = await client.cardById(QUIRK_CARD_IDS.normalMonster).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'rate_limited', status, retryAfterMs: YGOPRODECK_CIRCUIT.blockedMs });
    expect(client.health().limiter).toMatchObject({ pauseReason: 'blocked' });
    const sent = fake.server.requests.length;
    await expect(client.cardByName('Blue-Eyes White Dragon')).rejects.toMatchObject({ kind: 'rate_limited' });
    await expect(client.databaseVersion()).rejects.toMatchObject({ kind: 'rate_limited' });
    await expect(client.downloadDatabase()).rejects.toMatchObject({ kind: 'rate_limited' });
    await expect(client.image(QUIRK_CARD_IDS.normalMonster, 'full')).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(fake.server.requests).toHaveLength(sent);
    expect(client.health()).toMatchObject({ lastFailure: 'rate_limited' });
  });

  it('honours Retry-After on a 429, within bounds', async () => {
    fake.blocked = true;
    fake.blockStatus = 429;
    fake.blockRetryAfterSeconds = 120;
    await expect(clientFor(fake.url).cardById(1)).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 120_000 });
    fake.blockRetryAfterSeconds = 1;
    await expect(clientFor(fake.url).cardById(1)).rejects.toMatchObject({ retryAfterMs: YGOPRODECK_CIRCUIT.minBlockMs });
  });

  it('a 5xx opens a short circuit', async () => {
    const client = clientFor(fake.url);
    fake.server.mode = 'html500';
    await expect(client.cardById(QUIRK_CARD_IDS.normalMonster)).rejects.toMatchObject({
      kind: 'unavailable',
      status: 500,
      retryAfterMs: YGOPRODECK_CIRCUIT.unavailableMs,
    });
    fake.server.mode = 'normal';
    await expect(client.cardById(QUIRK_CARD_IDS.normalMonster)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(fake.server.requests).toHaveLength(1);
  });

  it('an HTML page instead of JSON (a challenge or block page) opens the long circuit', async () => {
    const server = await serverAnswering(htmlPage(200, 'Just a moment...'));
    const client = clientFor(server.url);
    await expect(client.cardById(1)).rejects.toMatchObject({ kind: 'unavailable', retryAfterMs: YGOPRODECK_CIRCUIT.blockedMs });
    await expect(client.cardById(2)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(server.requests).toHaveLength(1);
  });

  it('fails every queued caller at once when the circuit opens, and sends none of their requests', async () => {
    const client = clientFor(fake.url);
    fake.blocked = true;
    const calls = Array.from({ length: 12 }, (_, index) => client.cardById(1_000 + index));
    const results = await Promise.allSettled(calls);
    expect(results.every((result) => result.status === 'rejected' && isUpstreamError(result.reason, 'rate_limited'))).toBe(true);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a transport failure is unavailable but opens no circuit', async () => {
    const client = clientFor(fake.url);
    fake.server.mode = 'reset';
    await expect(client.cardById(QUIRK_CARD_IDS.normalMonster)).rejects.toMatchObject({ kind: 'unavailable' });
    fake.server.mode = 'normal';
    await expect(client.cardById(QUIRK_CARD_IDS.normalMonster)).resolves.toMatchObject({ name: 'Dark Magician' });
  });
});

describe('rate limit', () => {
  it('the production settings keep under half of the upstream limit', () => {
    const startsPerWindow = Math.ceil(YGOPRODECK_UPSTREAM_LIMIT.windowMs / YGOPRODECK_LIMITS.minTimeMs);
    expect(startsPerWindow).toBeLessThan(YGOPRODECK_UPSTREAM_LIMIT.maxRequests / 2);
  });

  it('a burst under the production settings stays at 10 requests in any second', async () => {
    const client = clientFor(fake.url);
    // Twelve: more than 10 fit in one second at any spacing under 100 ms; more would only wait.
    const ids = fake.cards.slice(0, 8).map((card) => card.id);
    const results = await Promise.allSettled([
      ...ids.map((id) => client.cardById(id)),
      ...ids.slice(0, 4).map((id) => client.image(id, 'small')),
    ]);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(fake.server.requests).toHaveLength(12);
    expect(fake.server.maxInWindow(1_000)).toBeLessThanOrEqual(10);
    expect(fake.blocked).toBe(false);
  });

  it('a burst of 500 calls (cards and images) under a scaled limiter: within budget, each caller answered or told busy', async () => {
    // Time scaled down 5×: the fake enforces 20 per 200 ms, and one start per 40 ms leaves room for
    // the bunching a loaded machine causes in the fake's own timestamps (it shares our event loop).
    fake.rateLimit = { windowMs: 200, maxRequests: 20 };
    const client = clientFor(fake.url, { limits: { minTimeMs: 40 } });
    const cards = fake.cards.slice(0, 250);
    const calls = cards.flatMap((card, index) => [client.cardById(card.id), client.image(card.id, index % 2 === 0 ? 'full' : 'small')]);
    const results = await Promise.allSettled(calls);
    const answered = results.filter((result) => result.status === 'fulfilled').length;
    const busy = results.filter((result) => result.status === 'rejected' && isUpstreamError(result.reason, 'busy')).length;
    expect(calls).toHaveLength(500);
    expect(answered + busy).toBe(500);
    expect(answered).toBeGreaterThanOrEqual(YGOPRODECK_LIMITS.maxQueued);
    expect(busy).toBeGreaterThan(0);
    expect(fake.server.requests).toHaveLength(answered);
    expect(fake.server.maxInWindow(200)).toBeLessThanOrEqual(10);
    expect(fake.blocked).toBe(false);
  });
});

describe('the fake YGOPRODeck itself', () => {
  async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${fake.url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('pages with num/offset and the meta arithmetic observed upstream', async () => {
    const first = await get('/api/v7/cardinfo.php?sort=name&num=7&offset=0');
    expect(first.body.meta).toMatchObject({
      current_rows: 7,
      total_rows: 300,
      rows_remaining: 293,
      total_pages: 42,
      pages_remaining: 42,
      next_page_offset: 7,
      next_page: 'https://db.ygoprodeck.com/api/v7/cardinfo.php?sort=name&num=7&offset=7',
    });
    const last = await get('/api/v7/cardinfo.php?sort=name&num=7&offset=294');
    expect(last.body.meta).toMatchObject({ current_rows: 6, rows_remaining: 0 });
    expect(last.body.meta).not.toHaveProperty('next_page');
    expect(await get('/api/v7/cardinfo.php?sort=name&num=7&offset=300')).toMatchObject({ status: 400 });
    expect(await get('/api/v7/cardinfo.php?num=7')).toMatchObject({ status: 400 });
  });

  it('answers fuzzy names, unknown parameters and the documented attribute error', async () => {
    const fuzzy = await get('/api/v7/cardinfo.php?fname=magician');
    const names = (fuzzy.body.data as { name: string }[]).map((card) => card.name);
    expect(names).toContain('Dark Magician');
    expect(names.every((name) => name.toLowerCase().includes('magician'))).toBe(true);
    expect(await get('/api/v7/cardinfo.php?colour=red')).toMatchObject({ status: 400, body: { error: expect.any(String) } });
    expect(await get('/api/v7/cardinfo.php?attribute=wood')).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^Attribute value of wood is invalid/) },
    });
    expect(await get('/api/v7/checkDBVer.php?x=1')).toMatchObject({ status: 400 });
  });

  it('blocks everything for the rest of the test once the limit is exceeded', async () => {
    fake.rateLimit = { windowMs: 60_000, maxRequests: 3 };
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) statuses.push((await fetch(`${fake.url}/api/v7/checkDBVer.php`)).status);
    expect(statuses).toEqual([200, 200, 200, 403, 403, 403]);
    expect(fake.blocked).toBe(true);
  });
});
