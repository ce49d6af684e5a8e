import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { createLocalLimiter } from '../../src/services/limiter.js';
import { decodePagerId } from '../../src/wallpaper/pager-state.js';
import type { FakeChannelName, FinalMessage, InteractionExchange, OptionValue } from '../fakes/discord.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../helpers/bot.js';
import { buttonCustomId } from '../helpers/components.js';

/**
 * The listings beyond a plain search, end to end through the fake Discord and the fake Wallhaven:
 * toplists and colours. One bot for the file, its limiter 20 times faster (the count per window is
 * what the limit is about; test/e2e/wallpaper.test.ts shows the real spacing holds).
 */

const OWNER = { id: '1356000000000000200', username: 'tester' };

function wallpaperCommand(bot: TestBot, subcommand: string, options: Record<string, OptionValue> = {}, channel: FakeChannelName = 'normal'): Promise<InteractionExchange> {
  return bot.discord.chatInput({ name: 'wallpaper', subcommand, options, channel, user: OWNER });
}

async function press(bot: TestBot, message: FinalMessage, label: string, channel: FakeChannelName = 'normal'): Promise<FinalMessage> {
  return (await bot.discord.button({ customId: buttonCustomId(message, label), message, user: OWNER, channel })).final();
}

const shownId = (message: FinalMessage) => message.embeds[0]?.title?.replace(/^Wallpaper /, '');

/** The parameters of a request to the fake, in the order they were sent. */
const paramsOf = (request: { query: URLSearchParams }) => [...request.query.entries()];

describe('/wallpaper listings beyond search', () => {
  let bot: TestBot;
  let fake: FakeWallhaven;

  beforeAll(async () => {
    fake = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: 45, windowMs: 3_000 } });
    bot = await startTestBot({
      env: { WALLHAVEN_URL: fake.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY },
      overrides: {
        limiterFactory: (options) => createLocalLimiter({ ...options, minTimeMs: options.minTimeMs / 20 }),
        memberShares: { wallhaven: { limit: 10_000 } },
      },
    });
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  it('lists the toplist of a period in a colour, sending exactly those parameters, and pages it ◀ ▶', async () => {
    const first = await (await wallpaperCommand(bot, 'search', { toplist: '1w', color: 'cc0000' })).final();
    expect(first.ephemeral).toBe(false);
    expect(first.embeds[0]!.description).toBe('All wallpapers · colour Red · sorted by toplist of the last week');
    const [request] = fake.requestsTo('/api/v1/search');
    expect(paramsOf(request!)).toEqual([
      ['categories', '111'],
      ['purity', '100'],
      ['sorting', 'toplist'],
      ['topRange', '1w'],
      ['colors', 'cc0000'],
      ['page', '1'],
    ]);
    expect(request!.headers['x-api-key']).toBe(CANARY_WALLHAVEN_KEY);
    const red = fake.catalogue.filter((w) => w.purity === 'sfw' && w.colors.includes('#cc0000')).sort((a, b) => b.favorites - a.favorites);
    expect(shownId(first)).toBe(red[0]!.id);
    const next = buttonCustomId(first, '▶');
    expect(next.length).toBeLessThanOrEqual(100);
    expect(decodePagerId(next)?.search).toMatchObject({ sorting: 'toplist', topRange: '1w', colour: 'cc0000' });

    const second = await press(bot, first, '▶');
    expect(shownId(second)).toBe(red[1]!.id);
    const back = await press(bot, second, '◀');
    expect(shownId(back)).toBe(red[0]!.id);
    // Both pages came from the one cached upstream page.
    expect(fake.requestsTo('/api/v1/search')).toHaveLength(1);
  });

  it('refuses a toplist period with another sorting, and an unknown colour, before any request', async () => {
    const contradiction = await (await wallpaperCommand(bot, 'search', { toplist: '1y', sorting: 'views' })).final();
    expect(contradiction).toMatchObject({ ephemeral: true, content: en.wallpaper.toplistWithOtherSorting });
    const german = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { color: 'mauve' }, locale: 'de' })).final();
    expect(german).toMatchObject({ ephemeral: true, content: 'Das ist keine der 29 Farben von Wallhaven: Wähle eine aus der Liste.' });
    expect(fake.requests).toHaveLength(0);
  });

  it('completes colours by name in the player’s language, without any request', async () => {
    const exchange = await bot.discord.autocomplete({ name: 'wallpaper', subcommand: 'search', options: { color: 'bleu' }, focused: 'color', locale: 'fr' });
    expect((await exchange.callback()).data?.choices).toEqual([
      { name: 'Bleu (#0066cc)', value: '0066cc' },
      { name: 'Bleu ciel (#0099cc)', value: '0099cc' },
    ]);
    expect(fake.requests).toHaveLength(0);
  });
});
