import { ComponentType, InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import type { FakeMessage } from '../fakes/discord.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { newMessageFrom } from '../helpers/components.js';
import { answerOf, scaledLimiters } from '../helpers/reliability.js';
import { WALLHAVEN_RATE_LIMIT } from '../../src/wallpaper/wallhaven-site.js';

/**
 * `/wallpaper search uploader:` and the **Uploads by …** button as Wallhaven receives them (`q=@name`,
 * exactly), hostile names refused before any request, and `ai-art` sent as `ai_art_filter` only when
 * the operator switched it on (WALLHAVEN_AI_FILTER).
 */

const OWNER = { id: '1356000000000000310', username: 'uploads-tester' };
const SCALE = 20;

function searchRequests(fake: FakeWallhaven) {
  return fake.requests.filter((request) => request.path === '/api/v1/search');
}

/** The message's buttons that carry a label and a custom_id. */
function buttonsOn(message: FakeMessage): { label: string; custom_id: string }[] {
  return (message.components ?? []).flatMap((row) =>
    row.type === ComponentType.ActionRow
      ? row.components.flatMap((component) =>
          component.type === ComponentType.Button && 'custom_id' in component && 'label' in component && component.label !== undefined
            ? [{ label: component.label, custom_id: component.custom_id }]
            : [],
        )
      : [],
  );
}

describe('/wallpaper uploader and ai-art through the fake Wallhaven', () => {
  let fake: FakeWallhaven;
  let bot: TestBot;

  beforeAll(async () => {
    // What is sent is tested here, not the pace: Wallhaven's 1.4 s spacing and the fake's window 20 times shorter.
    fake = await startFakeWallhaven({ rateLimit: { limit: WALLHAVEN_RATE_LIMIT.requests, windowMs: WALLHAVEN_RATE_LIMIT.windowMs / SCALE } });
    bot = await startTestBot({
      env: { WALLHAVEN_URL: fake.url, WALLHAVEN_AI_FILTER: 'true' },
      overrides: { limiterFactory: scaledLimiters(SCALE), memberShares: { wallhaven: { limit: 1_000 } } },
    });
  });
  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
  });

  it('sends an uploader as q=@name exactly, and opens their uploads from a wallpaper’s detail', async () => {
    const before = searchRequests(fake).length;
    const found = await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { uploader: 'night_owl' }, user: OWNER }));
    expect(found.embeds).toHaveLength(1);
    const sent = searchRequests(fake).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query.get('q')).toBe('@night_owl');
    expect(sent[0]!.url).toContain('q=%40night_owl');

    const id = found.embeds[0]!.title!.replace(/^Wallpaper /, '');
    const detail = await (await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id }, user: OWNER })).final();
    const uploads = buttonsOn(detail).find((button) => button.label.startsWith('Uploads by'));
    expect(uploads?.custom_id).toBeDefined();
    const pressedBefore = searchRequests(fake).length;
    // The uploads open as a new message (a reply, or a follow-up when the request waited), owned by whoever pressed.
    const pressed = await bot.discord.button({ customId: uploads!.custom_id, message: detail, user: OWNER });
    const opened = await newMessageFrom(pressed);
    expect([InteractionResponseType.ChannelMessageWithSource, InteractionResponseType.DeferredMessageUpdate]).toContain((await pressed.callback()).type);
    expect(opened.embeds).toHaveLength(1);
    expect(searchRequests(fake).slice(pressedBefore).map((request) => request.query.get('q'))).toEqual([`@${uploads!.label.replace(/^Uploads by /, '')}`]);
  });

  it('answers an unknown uploader with a sentence, and refuses hostile names and uploader with query before any request', async () => {
    const unknown = await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { uploader: 'nobody-here' }, user: OWNER }));
    expect(unknown.content).toContain('nobody-here');
    expect(unknown.content).toContain(en.wallpaper.noUploads('').split(' ').slice(0, 4).join(' '));
    const before = fake.requests.length;
    for (const uploader of ['@../x', '@', 'a'.repeat(300), 'two words', 'x?y=1']) {
      const refused = await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { uploader }, user: OWNER }));
      expect(refused.embeds, uploader).toHaveLength(0);
      expect(refused.content, uploader).toBeTruthy();
    }
    const both = await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { uploader: 'alpha', query: 'city' }, user: OWNER }));
    expect(both.content).toBe(en.wallpaper.uploaderWithQuery);
    expect(fake.requests.length).toBe(before);
  });

  it('sends the ai-art choice as ai_art_filter on search and random, and nothing without a choice', async () => {
    const before = fake.requests.length;
    await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query: 'city', 'ai-art': 'exclude' }, user: OWNER }));
    await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'random', options: { 'ai-art': 'include' }, user: OWNER }));
    await answerOf(await bot.discord.chatInput({ name: 'wallpaper', subcommand: 'search', options: { query: 'forest' }, user: OWNER }));
    const filters = fake.requests.slice(before).filter((request) => request.path === '/api/v1/search').map((request) => request.query.get('ai_art_filter'));
    expect(filters).toEqual(['1', '0', null]);
  });
});
