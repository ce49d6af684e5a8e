import { ApplicationCommandOptionType, type APIApplicationCommandOption, type APIButtonComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { wallpaper } from '../../../commands/wallpaper/index.js';
import { PAGER_IDLE_LIMIT_MS } from '../../../src/wallpaper/paging.js';
import { en } from '../../../src/i18n/en.js';
import type { MessagePayload, Reply } from '../../../src/interaction/reply.js';
import type { AppServices } from '../../../src/app/services.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { decodePagerId } from '../../../src/wallpaper/pager-state.js';
import { chatContext as chatContextOf, componentContext as componentContextOf, updated, USER } from '../../helpers/command-contexts.js';
import { pages, searchService, stubApp } from '../../helpers/wallpaper-fixtures.js';

/**
 * The handlers against a stub of the service, for what the fake Wallhaven never does: short pages
 * before the last one, a result of the wrong purity, a long limiter queue.
 */

const chatContext = (subcommand: string, values: Record<string, string>) => chatContextOf(subcommand, values);
const componentContext = (customId: string, ownerId: string | null = USER.id) => componentContextOf(customId, { ownerId });

function button(payload: MessagePayload, label: '◀' | '▶'): APIButtonComponent & { custom_id: string } {
  const found = payload.components?.flatMap((row) => row.components).find((component) => 'label' in component && component.label === label);
  return found as APIButtonComponent & { custom_id: string };
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
    expect(subcommandOptions('search').map((option) => option.name)).toEqual(['query', 'uploader', 'category', 'purity', 'resolution', 'ratio', 'sorting', 'toplist', 'color', 'ai-art']);
    for (const option of [wallpaper.data, ...(wallpaper.data.options ?? []), ...['search', 'show', 'random', 'collections'].flatMap(subcommandOptions)]) {
      expect(option.name).toMatch(/^[a-z][-a-z]{0,31}$/);
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
