import { ButtonStyle, ComponentType, InteractionResponseType, type APIButtonComponent } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerOf } from '../helpers/reliability.js';
import { en } from '../../src/i18n/en.js';
import { createLocalLimiter, type LimiterFactory } from '../../src/upstream/limiter.js';
import { maxStartsInWindow, WALLHAVEN_LIMITS } from '../../src/services/wallhaven/wallhaven.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';
import { decodePagerId } from '../../src/wallpaper/pager-state.js';
import type { FakeChannelName, FakeMessage, FinalMessage, InteractionExchange, OptionValue } from '../fakes/discord.js';
import { htmlPage, json } from '../fakes/fake-server.js';
import { PER_PAGE, startFakeWallhaven, type FakeWallhaven, type FakePurity } from '../fakes/wallhaven.js';
import { CANARY_WALLHAVEN_KEY, everythingSentToDiscord, startTestBot, type TestBot } from '../helpers/bot.js';

/**
 * Time scaling. Wallhaven allows 45 requests per 60 s; the service spaces request starts 1 400 ms
 * apart, so at most 43 start in any 60 s. These tests run that same limiter with its spacing divided
 * by a scale, against fakes whose fixed window is divided by the same scale: the count of requests
 * per window (what the limit is about) is unchanged, and the tests run that many times faster.
 *
 * The burst uses a gentler scale: event-loop and network jitter (a few tens of ms, with ~200
 * interactions in flight in this one process) does not shrink with the scale, and at 20× it would
 * eat most of the 2-request margin the real settings have.
 */
const SCALE = 20;
const BURST_SCALE = 10;
const windowAt = (scale: number) => WALLHAVEN_RATE_LIMIT.windowMs / scale;
const scaledLimiters =
  (scale: number): LimiterFactory =>
  (options) =>
    createLocalLimiter({ ...options, minTimeMs: options.minTimeMs / scale });

const OWNER = { id: '1356000000000000200', username: 'tester' };
const SOMEONE_ELSE = { id: '1356000000000000777', username: 'someone-else' };

async function startWallhavenBot(options: { withKey: boolean; now?: () => Date; scale?: number }): Promise<{ bot: TestBot; fake: FakeWallhaven }> {
  const scale = options.scale ?? SCALE;
  const fake = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: windowAt(scale) } });
  const bot = await startTestBot({
    env: { WALLHAVEN_URL: fake.url, ...(options.withKey ? { WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY } : {}) },
    overrides: {
      limiterFactory: scaledLimiters(scale),
      // One tester drives every flow here; the per-user budget is tested in test/reliability/cooldown.test.ts.
      memberShares: { wallhaven: { limit: 10_000 } },
      ...(options.now ? { clock: { now: options.now } } : {}),
    },
  });
  return { bot, fake };
}

function wallpaperCommand(bot: TestBot, subcommand: string, options: Record<string, OptionValue> = {}, channel: FakeChannelName = 'normal'): Promise<InteractionExchange> {
  return bot.discord.chatInput({ name: 'wallpaper', subcommand, options, channel });
}

function buttonsOn(message: FakeMessage): APIButtonComponent[] {
  return (message.components ?? []).flatMap((row) =>
    row.type === ComponentType.ActionRow ? row.components.filter((component) => component.type === ComponentType.Button) : [],
  );
}

function pagerButton(message: FakeMessage, label: '◀' | '▶'): APIButtonComponent & { custom_id: string } {
  const button = buttonsOn(message).find((candidate) => 'custom_id' in candidate && candidate.label === label);
  if (!button || !('custom_id' in button)) throw new Error(`no ${label} button on the message`);
  return button;
}

async function press(bot: TestBot, message: FinalMessage, label: '◀' | '▶', user = OWNER): Promise<{ exchange: InteractionExchange; final: FinalMessage }> {
  const exchange = await bot.discord.button({ customId: pagerButton(message, label).custom_id, message, user });
  return { exchange, final: await exchange.final() };
}

function shownId(message: FakeMessage): string | undefined {
  return message.embeds[0]?.title?.replace(/^Wallpaper /, '');
}

function footer(message: FakeMessage): string | undefined {
  return message.embeds[0]?.footer?.text;
}

describe('/wallpaper end to end, with an API key', () => {
  let bot: TestBot;
  let fake: FakeWallhaven;
  let now = new Date();

  beforeAll(async () => {
    ({ bot, fake } = await startWallhavenBot({ withKey: true, now: () => now }));
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  beforeEach(() => {
    fake.reset();
    now = new Date();
  });

  it('searches, pages ▶ across an upstream page boundary and ◀ back, fetching each page once', async () => {
    const newestSfw = fake
      .byPurity('sfw')
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map((wallpaper) => wallpaper.id);
    let message = await (await wallpaperCommand(bot, 'search')).final();
    expect(message.ephemeral).toBe(false);
    expect(shownId(message)).toBe(newestSfw[0]);
    expect(footer(message)).toBe(`1 / ${newestSfw.length}`);
    expect(message.embeds[0]!.image?.url).toMatch(/^https:\/\/th\.wallhaven\.cc\/lg\//);
    expect(pagerButton(message, '◀').disabled).toBe(true);
    expect(pagerButton(message, '▶').disabled).toBe(false);
    const link = buttonsOn(message).find((button) => button.style === ButtonStyle.Link);
    expect(link).toMatchObject({ url: `https://wallhaven.cc/w/${newestSfw[0]}` });

    for (let position = 2; position <= PER_PAGE; position++) {
      message = (await press(bot, message, '▶')).final;
      expect(shownId(message)).toBe(newestSfw[position - 1]);
    }
    // 24 results from one upstream page: the pages after the first cost nothing.
    expect(fake.requestsTo('/api/v1/search').map((request) => request.query.get('page'))).toEqual(['1']);

    const across = await press(bot, message, '▶');
    message = across.final;
    expect(shownId(message)).toBe(newestSfw[PER_PAGE]);
    expect(footer(message)).toBe(`${PER_PAGE + 1} / ${newestSfw.length}`);
    expect(fake.requestsTo('/api/v1/search').map((request) => request.query.get('page'))).toEqual(['1', '2']);
    expect(decodePagerId(pagerButton(message, '▶').custom_id)?.index).toBe(PER_PAGE);

    message = (await press(bot, message, '◀')).final;
    expect(shownId(message)).toBe(newestSfw[PER_PAGE - 1]);
    expect(fake.requestsTo('/api/v1/search')).toHaveLength(2);
    // Pressing edits the message in place.
    expect([InteractionResponseType.UpdateMessage, InteractionResponseType.DeferredMessageUpdate]).toContain((await across.exchange.callback()).type);
  });

  it('keeps the random sorting seed across pages, so results do not repeat', async () => {
    const anime = await (await wallpaperCommand(bot, 'search', { sorting: 'random', category: 'anime' })).final();
    const seed = fake.requestsTo('/api/v1/search')[0]!.query.get('seed');
    expect(seed).toMatch(/^[a-zA-Z0-9]{6}$/);
    expect(decodePagerId(pagerButton(anime, '▶').custom_id)?.search.seed).toBe(seed);
    const total = Number(footer(anime)!.split(' / ')[1]);
    expect(total).toBeGreaterThan(PER_PAGE);

    const seen = [shownId(anime)];
    let message = anime;
    while (!pagerButton(message, '▶').disabled) {
      message = (await press(bot, message, '▶')).final;
      seen.push(shownId(message));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const searches = fake.requestsTo('/api/v1/search');
    expect(searches.map((request) => [request.query.get('page'), request.query.get('seed')])).toEqual([
      ['1', seed],
      ['2', seed],
    ]);
  });

  it('serves several /wallpaper random calls from one upstream page of random results', async () => {
    const picks: string[] = [];
    for (let call = 0; call < 5; call++) {
      const message = await (await wallpaperCommand(bot, 'random', { category: 'general' })).final();
      expect(message.embeds[0]!.fields?.find((field) => field.name === 'Category')?.value).toBe('General · SFW');
      picks.push(shownId(message)!);
    }
    expect(new Set(picks).size).toBe(5);
    const searches = fake.requestsTo('/api/v1/search');
    expect(searches).toHaveLength(1);
    expect(searches[0]!.query.get('purity')).toBe('100');
    expect(searches[0]!.query.get('sorting')).toBe('random');
  });

  it('shows a wallpaper by id, by its wallhaven.cc/w/ page and by its whvn.cc short link, from one request', async () => {
    const wallpaper = fake.byPurity('sfw')[3]!;
    for (const id of [wallpaper.id, `https://wallhaven.cc/w/${wallpaper.id}`, `whvn.cc/${wallpaper.id}`]) {
      const message = await (await wallpaperCommand(bot, 'show', { id })).final();
      const embed = message.embeds[0]!;
      expect(shownId(message)).toBe(wallpaper.id);
      expect(embed.author?.name).toBe(`Uploaded by ${wallpaper.uploader.username}`);
      expect(embed.fields?.find((field) => field.name === 'Tags')?.value).toContain(wallpaper.tags[0]!.name);
      expect(embed.image?.url).toBe(wallpaper.path);
    }
    expect(fake.requestsTo('/api/v1/w/').map((request) => request.path)).toEqual([`/api/v1/w/${wallpaper.id}`]);
  });

  it('lets only the user who searched page, and disables the buttons after 10 idle minutes', async () => {
    const first = await (await wallpaperCommand(bot, 'search', { query: 'nature' })).final();
    const stranger = await press(bot, first, '▶', SOMEONE_ELSE);
    expect(stranger.final.ephemeral).toBe(true);
    expect(stranger.final.content).toBe(en.wallpaper.notYourPager);

    const second = (await press(bot, first, '▶')).final;
    expect(footer(second)).toMatch(/^2 \//);
    now = new Date(now.getTime() + 10 * 60_000 + 5_000);
    const expired = (await press(bot, second, '▶')).final;
    // Same result, every pager button disabled, and a note why; the link to the page stays.
    expect(shownId(expired)).toBe(shownId(second));
    expect(expired.content).toBe(en.wallpaper.pagerExpired);
    expect(pagerButton(expired, '◀').disabled).toBe(true);
    expect(pagerButton(expired, '▶').disabled).toBe(true);
    // ◀ ▶, More like this, Grid (both open a message of the presser's own) and the link.
    expect(buttonsOn(expired)).toHaveLength(5);
  });

  it('keeps a query too long for a custom_id in memory, and says so when it is gone', async () => {
    const query = 'nature '.repeat(20).trim();
    const first = await (await wallpaperCommand(bot, 'search', { query, resolution: '1920x1080', ratio: 'landscape' })).final();
    const id = pagerButton(first, '▶').custom_id;
    expect(id.length).toBeLessThanOrEqual(100);
    expect(decodePagerId(id)?.search.query.kind).toBe('stored');
    const forged = `${id.slice(0, id.indexOf('#') + 1)}AAAAAAAAAA`;
    const gone = await bot.discord.button({ customId: forged, message: first, user: OWNER });
    expect((await gone.final()).content).toBe(en.wallpaper.forgottenQuery);
    const requests = fake.requests.length;
    const second = (await press(bot, first, '▶')).final;
    expect(second.embeds[0]!.description).toContain(query);
    expect(fake.requests.length).toBe(requests);
  });

  it('turns Wallhaven errors into plain sentences', async () => {
    const absent = await (await wallpaperCommand(bot, 'show', { id: 'zzzzzz' })).final();
    expect(absent).toMatchObject({ ephemeral: true, content: 'Wallhaven has no wallpaper with the id `zzzzzz`.' });

    fake.mode = 'html500';
    const broken = await (await wallpaperCommand(bot, 'show', { id: 'zzzzz1' })).final();
    expect(broken.content).toBe('Wallhaven is unavailable right now, try again in a minute.');
    fake.mode = 'normal';

    fake.nextResponses.push(htmlPage(403, 'Just a moment...', { 'cf-mitigated': 'challenge' }));
    const challenged = await (await wallpaperCommand(bot, 'search', { query: 'like:abcdef' })).final();
    expect(challenged.content).toBe(en.wallpaper.similarChallenged);
    // Our query string never starts with q=, which is what Cloudflare challenges.
    expect(fake.requests.at(-1)!.url).toMatch(/\?categories=/);

    // The results shrank between two presses: the next page is past the end (a JSON 400).
    let message = await (await wallpaperCommand(bot, 'search', { sorting: 'views' })).final();
    while (!footer(message)!.startsWith(`${PER_PAGE} /`)) message = (await press(bot, message, '▶')).final;
    fake.nextResponses.push(json(400, { error: 'Bad Request' }));
    const pastEnd = await press(bot, message, '▶');
    expect(pastEnd.final).toMatchObject({ ephemeral: true, content: en.wallpaper.noMoreResults });

    fake.nextResponses.push(htmlPage(429, 'Too many requests - wallhaven.cc', { 'retry-after': '1' }));
    const limited = await (await wallpaperCommand(bot, 'show', { id: 'zzzzz2' })).final();
    expect(limited).toMatchObject({ ephemeral: true, content: 'Wallhaven asked us to slow down; try again in 1 second.' });
    // While paused, nothing is sent: the next user is told to wait without a request.
    const requests = fake.requests.length;
    const waiting = await (await wallpaperCommand(bot, 'show', { id: 'zzzzz3' })).final();
    expect(waiting.content).toMatch(/^Wallhaven asked us to slow down; try again in 1 second/);
    expect(fake.requests.length).toBe(requests);
    const pausedUntil = bot.app.services.wallhaven.health().limiter.pausedUntil ?? Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pausedUntil - Date.now()) + 50));
  });

  it('refuses bad input before any upstream request', async () => {
    const cases: [subcommand: string, options: Record<string, string>, reply: RegExp][] = [
      ['show', { id: 'abc' }, /^That is not a wallpaper I can look up: a wallpaper id is 6 lowercase letters and digits/],
      ['show', { id: 'https://example.com/w/abcdef' }, /only wallhaven\.cc and whvn\.cc links/],
      ['show', { id: 'https://wallhaven.cc/x/abcdef' }, /not a wallpaper page/],
      ['show', { id: 'wallhaven.cc/w/../../api' }, /^That is not a wallpaper I can look up/],
      ['search', { resolution: 'big' }, /^The resolution must be width×height in pixels, like `1920x1080`/],
      ['search', { query: 'x'.repeat(201) }, /^That search is 201 characters long; Wallhaven takes at most 200\.$/],
      ['search', { ratio: '7x3' }, /^The ratio must be one of 16x9, 16x10, 21x9, 9x16, 4x3, landscape, portrait\.$/],
      ['search', { sorting: 'hot' }, /^The sorting must be one of/],
      ['random', { category: 'cars' }, /^The category must be general, anime, people/],
    ];
    for (const [subcommand, options, reply] of cases) {
      const message = await (await wallpaperCommand(bot, subcommand, options)).final();
      expect(message.ephemeral, JSON.stringify(options)).toBe(true);
      expect(message.content).toMatch(reply);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('suggests a broader query when nothing matches', async () => {
    const message = await (await wallpaperCommand(bot, 'search', { query: 'penguins', category: 'anime' })).final();
    expect(message).toMatchObject({
      ephemeral: true,
      content: 'No wallpapers match “penguins” with these filters. Try fewer or more general words, all categories.',
    });
  });

  it('sends the API key only as a header: never in a URL, a reply or a log line', () => {
    expect(fake.requests.length + bot.discord.calls.length).toBeGreaterThan(0);
    expect(bot.logs.text).not.toContain(CANARY_WALLHAVEN_KEY);
    expect(everythingSentToDiscord(bot.discord)).not.toContain(CANARY_WALLHAVEN_KEY);
  });
});

describe('/wallpaper NSFW gating: purity × channel × key', () => {
  const bots = new Map<'key' | 'noKey', { bot: TestBot; fake: FakeWallhaven }>();
  const botFor = (key: 'key' | 'noKey') => bots.get(key)!;

  beforeAll(async () => {
    const [keyed, keyless] = await Promise.all([startWallhavenBot({ withKey: true }), startWallhavenBot({ withKey: false })]);
    bots.set('key', keyed).set('noKey', keyless);
  });

  afterAll(async () => {
    for (const { bot, fake } of bots.values()) {
      await bot.stop();
      await fake.close();
    }
  });

  const PURITY_LABEL: Record<FakePurity, string> = { sfw: 'SFW', sketchy: 'Sketchy', nsfw: 'NSFW' };
  const CHANNELS: FakeChannelName[] = ['normal', 'ageRestricted', 'thread', 'normalThread', 'dm'];

  function expectedRefusal(purity: FakePurity, channel: FakeChannelName, hasKey: boolean): string | null {
    if (purity === 'sfw') return null;
    if (channel === 'dm') return en.wallpaper.refusedInDm;
    if (channel === 'normal' || channel === 'normalThread') return en.wallpaper.refusedInChannel;
    return purity === 'nsfw' && !hasKey ? en.wallpaper.refusedWithoutKey : null;
  }

  const matrix = (['sfw', 'sketchy', 'nsfw'] as const).flatMap((purity) =>
    CHANNELS.flatMap((channel) => (['key', 'noKey'] as const).map((key) => [purity, channel, key] as const)),
  );

  it.each(matrix)('search purity:%s in %s (%s)', async (purity, channel, key) => {
    const { bot, fake } = botFor(key);
    const before = fake.requests.length;
    const message = await (await wallpaperCommand(bot, 'search', { purity }, channel)).final();
    const refusal = expectedRefusal(purity, channel, key === 'key');
    if (refusal === null) {
      expect(message.ephemeral).toBe(false);
      expect(message.embeds[0]!.fields?.find((field) => field.name === 'Category')?.value).toMatch(new RegExp(` · ${PURITY_LABEL[purity]}$`));
      expect(message.embeds[0]!.image?.url).toMatch(/^https:\/\/th\.wallhaven\.cc\//);
    } else {
      expect(message).toMatchObject({ ephemeral: true, content: refusal, embeds: [] });
      expect(fake.requests.length).toBe(before);
    }
  });

  it('checks the purity of a /wallpaper show result before rendering it', async () => {
    const { bot, fake } = botFor('noKey');
    const sketchy = fake.byPurity('sketchy')[0]!.id;
    const nsfw = fake.byPurity('nsfw')[0]!.id;
    const refused = await (await wallpaperCommand(bot, 'show', { id: sketchy }, 'normal')).final();
    expect(refused).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedInChannel, embeds: [] });
    const inDm = await (await wallpaperCommand(bot, 'show', { id: sketchy }, 'dm')).final();
    expect(inDm).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedInDm });
    const shown = await (await wallpaperCommand(bot, 'show', { id: sketchy }, 'thread')).final();
    expect(shownId(shown)).toBe(sketchy);
    // Without a key Wallhaven answers 401 for NSFW: where NSFW could be shown, the missing key is the reason.
    const needsKey = await (await wallpaperCommand(bot, 'show', { id: nsfw }, 'ageRestricted')).final();
    expect(needsKey).toMatchObject({ ephemeral: true, content: 'This wallpaper needs a Wallhaven API key (it is NSFW), and this bot has none configured.' });
    const notHere = await (await wallpaperCommand(bot, 'show', { id: nsfw }, 'normal')).final();
    expect(notHere).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedInChannel });

    const keyed = botFor('key');
    const nsfwId = keyed.fake.byPurity('nsfw')[1]!.id;
    const inThread = await (await wallpaperCommand(keyed.bot, 'show', { id: nsfwId }, 'thread')).final();
    expect(shownId(inThread)).toBe(nsfwId);
    const inNormal = await (await wallpaperCommand(keyed.bot, 'show', { id: nsfwId }, 'normal')).final();
    expect(inNormal).toMatchObject({ ephemeral: true, content: en.wallpaper.refusedInChannel, embeds: [] });
  });

  it('never sends the key from the keyless bot, and only as X-API-Key from the keyed one', () => {
    expect(botFor('noKey').fake.requests.every((request) => request.headers['x-api-key'] === undefined)).toBe(true);
    const keyed = botFor('key').fake.requests;
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.every((request) => request.headers['x-api-key'] === CANARY_WALLHAVEN_KEY && !request.url.includes(CANARY_WALLHAVEN_KEY))).toBe(true);
    for (const { bot } of bots.values()) {
      expect(bot.logs.text).not.toContain(CANARY_WALLHAVEN_KEY);
      expect(everythingSentToDiscord(bot.discord)).not.toContain(CANARY_WALLHAVEN_KEY);
    }
  });
});

describe('/wallpaper under a burst', () => {
  let bot: TestBot;
  let fake: FakeWallhaven;

  beforeAll(async () => {
    ({ bot, fake } = await startWallhavenBot({ withKey: true, scale: BURST_SCALE }));
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  it('holds the real settings under the limit: at most 43 request starts in any 60 s', () => {
    expect(maxStartsInWindow(WALLHAVEN_LIMITS.minTimeMs, WALLHAVEN_RATE_LIMIT.windowMs)).toBe(43);
    // The scaled limiter used below keeps the same count per scaled window.
    expect(maxStartsInWindow(WALLHAVEN_LIMITS.minTimeMs / BURST_SCALE, windowAt(BURST_SCALE))).toBe(43);
  });

  it('answers 100 distinct /wallpaper show calls, keeping every (scaled) 60 s window at or under 45', { timeout: 60_000 }, async () => {
    const ids = fake.catalogue.slice(0, 100).map((wallpaper) => wallpaper.id);
    const exchanges: InteractionExchange[] = [];
    // Arrivals faster than the limiter drains (one per 50 ms against one start per 140 ms): the queue
    // fills, and stays full for longer than a window, so the window is tested at full pressure.
    for (const id of ids) {
      exchanges.push(await wallpaperCommand(bot, 'show', { id }, 'ageRestricted'));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A request deferred before its refusal (a busy machine) is refused privately in a follow-up, its public placeholder deleted.
    const answers = await Promise.all(exchanges.map((exchange) => answerOf(exchange, 15_000)));

    expect(fake.maxInWindow(windowAt(BURST_SCALE), '/api/v1/')).toBeLessThanOrEqual(WALLHAVEN_RATE_LIMIT.requests);
    expect(fake.requestsTo('/api/v1/').length).toBeGreaterThan(WALLHAVEN_RATE_LIMIT.requests);
    const shown = answers.filter((answer, index) => shownId(answer.message) === ids[index]);
    const busy = answers.filter((answer) => /^Almanac is busy with Wallhaven requests; try again in \d+ seconds?\.$/.test(answer.content));
    expect(shown.length + busy.length).toBe(100);
    expect(shown.length).toBeGreaterThan(WALLHAVEN_RATE_LIMIT.requests);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) expect(answer.ephemeral).toBe(true);
    // Requests that waited in the queue were deferred first, then completed by an edit (or refused in a follow-up).
    const deferred = exchanges.filter((_, index) => answers[index]!.callbackType === InteractionResponseType.DeferredChannelMessageWithSource);
    expect(deferred.length).toBeGreaterThan(0);
    for (const exchange of deferred) expect(exchange.edits().length + exchange.followUps().length).toBeGreaterThan(0);
    expect(bot.logs.entries().filter((line) => line.msg === 'interaction failed')).toEqual([]);

    // Still standing: the next command is answered normally.
    const status = await (await bot.discord.chatInput({ name: 'status' })).final();
    expect(status.embeds.length).toBeGreaterThan(0);
  });
});
