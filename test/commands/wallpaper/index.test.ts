import { ApplicationCommandOptionType, type APIApplicationCommandOption, type APIButtonComponent } from 'discord.js';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { wallpaper } from '../../../commands/wallpaper/index.js';
import { PAGER_IDLE_LIMIT_MS } from '../../../src/wallpaper/paging.js';
import { en } from '../../../src/i18n/en.js';
import { ALL_APP_PERMISSIONS, SERVER_INSTALLATION, type ChannelInfo, type ChatInputContext, type ComponentContext, type ComponentResult } from '../../../src/interaction/context.js';
import type { MessagePayload, Reply } from '../../../src/interaction/reply.js';
import type { AppServices } from '../../../src/app/services.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import type { WallpaperSearch } from '../../../src/wallpaper/search.js';
import type { WallhavenService } from '../../../src/services/wallhaven.js';
import type { WallpaperPage, WallpaperPurity, WallpaperSummary } from '../../../src/wallpaper/wallpaper.js';
import { decodePagerId, longQueryKey } from '../../../src/wallpaper/pager-state.js';
import { WallpaperListings } from '../../../src/services/wallpaper-listings.js';

/**
 * The handlers against a stub of the service, for what the fake Wallhaven never does: short pages
 * before the last one, a result of the wrong purity, a long limiter queue.
 */

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const USER = { id: '42', username: 'owner', locale: 'en-US' };
const NORMAL: ChannelInfo = { id: 'c1', kind: 'guild', ageRestricted: false };

function item(id: string, purity: WallpaperPurity = 'sfw'): WallpaperSummary {
  return {
    id,
    pageUrl: `https://wallhaven.cc/w/${id}`,
    shortUrl: `https://whvn.cc/${id}`,
    views: 1,
    favorites: 1,
    purity,
    category: 'general',
    width: 1920,
    height: 1080,
    resolution: '1920x1080',
    ratio: 1.78,
    fileSize: 1000,
    fileType: 'image/png',
    createdAt: new Date(NOW),
    colors: [],
    thumbnails: { large: `https://th.wallhaven.cc/lg/${id.slice(0, 2)}/${id}.jpg` },
  };
}

/** Pages of the given sizes; ids encode page and offset (`p2o09x`). */
function pages(sizes: number[], purityOf: (page: number, offset: number) => WallpaperPurity = () => 'sfw'): Map<number, WallpaperPage> {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  return new Map(
    sizes.map((size, index) => [
      index + 1,
      {
        items: Array.from({ length: size }, (_, offset) => item(`p${index + 1}o${String(offset).padStart(2, '0')}x`, purityOf(index + 1, offset))),
        page: index + 1,
        lastPage: sizes.length,
        total,
        perPage: 24,
        seed: null,
        query: null,
      },
    ]),
  );
}

function stubApp(service: Partial<WallhavenService>): AppServices {
  const wallhaven = { nsfwAvailable: false, expectedWaitMs: () => 0, ...service } as WallhavenService;
  const stored = new Map<string, string>();
  const longQueries = { remember: async (text: string) => void stored.set(longQueryKey(text), text), recall: async (key: string) => stored.get(key) };
  return {
    clock: { now: () => new Date(NOW) },
    wallhaven,
    wallpaperListings: new WallpaperListings(wallhaven, longQueries),
    // Shares are tested end to end (cooldown.test.ts, fair-share.test.ts): here every request is free.
    memberShares: { spenderFor: () => ({}) },
  } as unknown as AppServices;
}

function searchService(byPage: Map<number, WallpaperPage>, options: { delayMs?: number; expectedWaitMs?: number } = {}) {
  const search = vi.fn(async (request: WallpaperSearch) => {
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const page = byPage.get(request.page);
    if (!page) throw new UpstreamError('wallhaven', 'not_found', 'page past the end');
    return page;
  });
  return { search, expectedWaitMs: () => options.expectedWaitMs ?? 0 };
}

const log = pino({ level: 'silent' });

function chatContext(subcommand: string, values: Record<string, string>) {
  const defer = vi.fn(async () => undefined);
  const progress = vi.fn(async () => undefined);
  const ctx: ChatInputContext = {
    interactionId: 'i1',
    user: USER,
    channel: NORMAL,
    installation: SERVER_INSTALLATION,
    appPermissions: ALL_APP_PERMISSIONS,
    memberPermissions: { manageServer: false },
    log,
    options: { subcommand, getString: (name) => values[name] ?? null, getBoolean: () => null, getInteger: () => null, getAttachment: () => null },
    defer,
    progress,
  };
  return { ctx, defer, progress };
}

function componentContext(customId: string, ownerId: string | null = USER.id): ComponentContext {
  return {
    interactionId: 'i2',
    user: USER,
    channel: NORMAL,
    installation: SERVER_INSTALLATION,
    appPermissions: ALL_APP_PERMISSIONS,
    memberPermissions: { manageServer: false },
    log,
    customId,
    values: [],
    message: { id: 'm1', createdTimestamp: NOW, ownerId },
    deferUpdate: vi.fn(async () => undefined),
    progress: vi.fn(async () => undefined),
  };
}

function button(payload: MessagePayload, label: '◀' | '▶'): APIButtonComponent & { custom_id: string } {
  const found = payload.components?.flatMap((row) => row.components).find((component) => 'label' in component && component.label === label);
  return found as APIButtonComponent & { custom_id: string };
}

function updated(result: ComponentResult): MessagePayload {
  if (!('update' in result)) throw new Error(`expected an update, got ${JSON.stringify(result)}`);
  return result.update;
}

async function pressFrom(app: AppServices, payload: MessagePayload, label: '◀' | '▶'): Promise<MessagePayload> {
  return updated(await wallpaper.handleComponent!(componentContext(button(payload, label).custom_id), app));
}

function subcommandOptions(name: string): APIApplicationCommandOption[] {
  const sub = wallpaper.data.options?.find((option) => option.name === name);
  expect(sub?.type).toBe(ApplicationCommandOptionType.Subcommand);
  return (sub as { options?: APIApplicationCommandOption[] }).options ?? [];
}

describe('/wallpaper definition', () => {
  it('has search, show and random, is not age-restricted (gated in code), within Discord’s limits', () => {
    expect(wallpaper.data.name).toBe('wallpaper');
    expect(wallpaper.data.nsfw).toBe(false);
    expect(wallpaper.componentPrefix).toBe('wp');
    expect(wallpaper.data.options?.map((option) => option.name)).toEqual(['search', 'show', 'random', 'collections']);
    expect(subcommandOptions('search').map((option) => option.name)).toEqual(['query', 'category', 'purity', 'resolution', 'ratio', 'sorting', 'toplist', 'color']);
    for (const option of [wallpaper.data, ...(wallpaper.data.options ?? []), ...['search', 'show', 'random', 'collections'].flatMap(subcommandOptions)]) {
      expect(option.name).toMatch(/^[a-z]{1,32}$/);
      expect(option.description.length).toBeGreaterThan(0);
      expect(option.description.length).toBeLessThanOrEqual(100);
      expect(((option as { choices?: unknown[] }).choices ?? []).length).toBeLessThanOrEqual(25);
    }
  });
});

describe('/wallpaper handlers', () => {
  it('answers a cached search at once, without deferring and without a note', async () => {
    const { ctx, defer } = chatContext('search', {});
    const reply = await wallpaper.execute(ctx, stubApp(searchService(pages([24, 24]))));
    expect(defer).not.toHaveBeenCalled();
    expect(reply.content).toBeUndefined();
    expect(reply.embeds?.[0]?.footer?.text).toBe('1 / 48');
    // The transport disables the pager after 10 idle minutes.
    expect(reply.disableComponentsAfterMs).toBe(PAGER_IDLE_LIMIT_MS);
    expect(PAGER_IDLE_LIMIT_MS).toBe(10 * 60_000);
  });

  it('tells the user at once about a long wait in the shared limiter queue, then answers', async () => {
    const { ctx, progress } = chatContext('search', { query: 'mountains' });
    const reply = await wallpaper.execute(ctx, stubApp(searchService(pages([24]), { delayMs: 400, expectedWaitMs: 12_000 })));
    expect(progress).toHaveBeenCalledOnce();
    expect(progress).toHaveBeenCalledWith(
      '⏳ Wallhaven allows 45 requests a minute, shared by everyone using Almanac: yours is queued, with a wait of 12 seconds.',
      { ephemeral: false },
    );
    expect(reply.content).toBeUndefined();
    expect(reply.embeds).toHaveLength(1);
  });

  it('defers without a note when the queue is short but the answer is slow', async () => {
    const { ctx, defer, progress } = chatContext('search', { query: 'lakes' });
    await wallpaper.execute(ctx, stubApp(searchService(pages([24]), { delayMs: 400, expectedWaitMs: 1_400 })));
    expect(defer).toHaveBeenCalledWith({ ephemeral: false });
    expect(progress).not.toHaveBeenCalled();
  });

  it('pages over a short page before the last one without losing or repeating results', async () => {
    const app = stubApp(searchService(pages([24, 10, 24])));
    let payload: Reply | MessagePayload = await wallpaper.execute(chatContext('search', {}).ctx, app);
    const seen = [payload.embeds?.[0]?.title];
    while (!button(payload, '▶').disabled) {
      payload = await pressFrom(app, payload, '▶');
      seen.push(payload.embeds?.[0]?.title);
    }
    expect(seen).toHaveLength(58);
    expect(new Set(seen).size).toBe(58);
    expect(seen[34]).toBe('Wallpaper p3o00x');
    expect(payload.embeds?.[0]?.footer?.text).toBe('58 / 58');
    // Back from the first result of page 3 lands on the last result of the short page 2.
    let back: MessagePayload = payload;
    while (back.embeds?.[0]?.title !== 'Wallpaper p3o00x') back = await pressFrom(app, back, '◀');
    back = await pressFrom(app, back, '◀');
    expect(back.embeds?.[0]?.title).toBe('Wallpaper p2o09x');
    expect(decodePagerId(button(back, '◀').custom_id)?.index).toBe(24 + 9);
  });

  it('withholds a result whose purity this channel may not show, keeping the pager', async () => {
    const app = stubApp(searchService(pages([3], (_, offset) => (offset === 1 ? 'sketchy' : 'sfw'))));
    const first = await wallpaper.execute(chatContext('search', {}).ctx, app);
    const second = await pressFrom(app, first, '▶');
    expect(second.embeds?.[0]?.title).toBe('Result not shown here');
    expect(second.embeds?.[0]?.image).toBeUndefined();
    expect(JSON.stringify(second)).not.toContain('p1o01x');
    expect((await pressFrom(app, second, '▶')).embeds?.[0]?.title).toBe('Wallpaper p1o02x');
  });

  it('refuses a press when the message does not say who ran the search', async () => {
    const app = stubApp(searchService(pages([24])));
    const first = await wallpaper.execute(chatContext('search', {}).ctx, app);
    const result = await wallpaper.handleComponent!(componentContext(button(first, '▶').custom_id, null), app);
    expect(result).toEqual({ reply: { content: en.wallpaper.notYourPager, ephemeral: true } });
  });

  it('answers an upstream failure while paging on the side, leaving the wallpaper on show', async () => {
    const service = searchService(pages([24, 24]));
    const app = stubApp(service);
    const first = await wallpaper.execute(chatContext('search', {}).ctx, app);
    service.search.mockRejectedValueOnce(new UpstreamError('wallhaven', 'unavailable', 'wallhaven answered 503', { status: 503 }));
    const result = await wallpaper.handleComponent!(componentContext(button(first, '▶').custom_id), app);
    expect(result).toEqual({ reply: { content: 'Wallhaven is unavailable right now, try again in a minute.', ephemeral: true } });
  });
});
