import { ChannelType, GatewayDispatchEvents, GatewayIntentBits, MessageType, OverwriteType, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeMessage, MessageWrite } from '../fakes/discord.js';
import { BOT_USER, MEMBER_PERMISSIONS } from '../fakes/discord-guilds.js';
import { embedCharacterCount } from '../../src/render/format.js';
import { QUIRK_CARD_IDS, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { createTextChannel } from '../helpers/guild-channel.js';
import { waitForEveryCardDatabase } from '../helpers/language-databases.js';

/**
 * Cards named inline in chat (`MESSAGE_SEARCH=true`), through the real client and the fake
 * Discord's message dispatches. The app's clock is the test's: the 10 s per-channel window and the
 * 5 minutes an answer follows its message pass without waiting.
 */

const DARK_MAGICIAN = QUIRK_CARD_IDS.normalMonster;
const BLUE_EYES = QUIRK_CARD_IDS.altArts;
const ASH_BLOSSOM = QUIRK_CARD_IDS.ampersandName;
/** Words no log line may ever hold: they are only ever in messages' text. */
const CANARY = 'wobbleglork';

describe('cards named inline, end to end', () => {
  let ygoprodeck: FakeYgoprodeck;
  let bot: TestBot;
  let now = Date.UTC(2026, 0, 5, 12);
  let nextChannel = 1356000000000000900n;

  const posts = () => bot.discord.channelPosts();
  const apiRequests = () => ygoprodeck.requestsTo('/api/').length;
  /** The post answering `message`, once it is there. */
  const answerTo = (message: FakeMessage): Promise<MessageWrite> =>
    bot.discord.waitUntil(() => posts().find((post) => post.message.message_reference?.message_id === message.id));
  const say = (content: string, channelId?: string) => bot.discord.userMessage({ content, ...(channelId === undefined ? {} : { channelId }) });
  const titles = (post: { message: FakeMessage }) => post.message.embeds.map((embed) => embed.title);

  /** A new text channel of the guild, with these overwrites for Almanac's member. */
  function newChannel(deny: bigint = 0n): string {
    return createTextChannel(bot.discord, String(nextChannel++), deny);
  }

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    bot = await startTestBot({
      env: { MESSAGE_SEARCH: 'true', YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
      overrides: { clock: { now: () => new Date(now) } },
      // Requests reach the fake Discord at the app's time: the per-channel cap is counted in it.
      discord: { now: () => now },
    });
    // The tests count API requests: the set list and the languages, downloaded in the background
    // after English, must be in first (a loaded machine delays them into a test).
    await waitForEveryCardDatabase(bot.app.services.cards);
  }, 120_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
  });

  // Each test starts in a new 10 s window of every channel.
  beforeEach(() => {
    now += 11_000;
  });

  it('IDENTIFYs with the message intents, Message Content included', () => {
    const [session] = bot.discord.gatewaySessions();
    const wanted = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent;
    expect(session!.intents).toBe(wanted);
  });

  it('answers <name> with the card as a reply, its art attached, never linked, with no API request; art downloaded once', async () => {
    const before = apiRequests();
    const message = say(`${CANARY} what does <Dark Magician> do?`);
    const post = await answerTo(message);
    expect(post.message.type).toBe(MessageType.Reply);
    expect(titles(post)).toEqual(['Dark Magician']);
    expect(post.message.embeds[0]!.image?.url).toBe(`attachment://card-${DARK_MAGICIAN}.jpg`);
    expect(post.files.map((file) => file.name)).toEqual([`card-${DARK_MAGICIAN}.jpg`]);
    expect(post.files[0]!.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(post.message.content).toBe('');
    expect(JSON.stringify(post.call.json)).not.toContain('images.ygoprodeck.com');
    expect((post.call.json as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });

    await answerTo(say('[[dark magician]] again'));
    expect(ygoprodeck.requestsTo(`/images/cards/${DARK_MAGICIAN}.jpg`)).toHaveLength(1);
    expect(apiRequests()).toBe(before);
  });

  it('answers up to three names in one message, each card once, within Discord’s 6,000 embed characters', async () => {
    const post = await answerTo(say('<Ash Blossom & Joyous Spring> [[Blue-Eyes White Dragon]] <ash blossom & joyous spring> <Dark Magician> <Maxx "C">'));
    expect(titles(post)).toEqual(['Ash Blossom & Joyous Spring', 'Blue-Eyes White Dragon', 'Dark Magician']);
    expect(post.files.map((file) => file.name)).toEqual([`card-${ASH_BLOSSOM}.jpg`, `card-${BLUE_EYES}.jpg`, `card-${DARK_MAGICIAN}.jpg`]);
    expect(post.message.embeds.reduce((sum, embed) => sum + embedCharacterCount(embed), 0)).toBeLessThanOrEqual(6_000);
  });

  it('shows the closest card with a short "did you mean" line when no match is confident', async () => {
    const post = await answerTo(say('<dark>'));
    expect(post.message.embeds).toHaveLength(1);
    const offered = /^No card is named exactly “dark”; here is the closest\. Did you mean (.+)\?$/.exec(post.message.content);
    expect(offered).not.toBeNull();
    const names = [...offered![1]!.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]);
    expect(names).toHaveLength(3);
    // The closest card is shown, the others are offered; none twice.
    expect(new Set([...names, post.message.embeds[0]!.title]).size).toBe(4);
    for (const name of names) expect(name!.toLowerCase()).toContain('dark');
    expect(post.message.content).not.toMatch(/\bundefined\b|\bnull\b|\bNaN\b/);
  });

  it('quotes names back with control characters made visible and bidi controls removed, as slash commands do', async () => {
    // Names matched only loosely, so that each is quoted back ("No card is named exactly …").
    const post = await answerTo(say('[[dark\u202E]] [[blue\u0000x]] [[magic\u001bc]]'));
    const lines = post.message.content.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^No card is named exactly “dark”;/);
    expect(lines[1]).toMatch(/^No card is named exactly “blue\uFFFDx”;/);
    expect(lines[2]).toMatch(/^No card is named exactly “magic\uFFFDc”;/);
    // Nowhere in the post: JSON writes NUL and ESC as \u0000 and \u001b; bidi controls as they are.
    expect(JSON.stringify(post.call.json)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]|\\u00[01][0-9a-f]/i);
  });

  it('never reads Discord’s tokens, code or spoilers, and ignores bots, webhooks and its own messages', async () => {
    const ignored = [
      say('<@1356000000000000200> <@!1356000000000000200> <#1356000000000000101> <@&1356000000000000100> hi'),
      say('<:dm:1356000000000000400> <a:dm:1356000000000000401> <t:1700000000:R> </card show:1356000000000000500>'),
      say('<https://db.ygoprodeck.com/card/?search=Dark%20Magician> `<Dark Magician>` ```\n[[Dark Magician]]\n``` ||<Dark Magician>||'),
      bot.discord.userMessage({ content: '<Dark Magician>', author: { id: '1356000000000000555', username: 'otherbot', bot: true } }),
      bot.discord.userMessage({ content: '<Dark Magician>', webhookId: '1356000000000000666', author: { id: '1356000000000000666', bot: true } }),
      bot.discord.userMessage({ content: '<Dark Magician>', author: BOT_USER }),
    ];
    const sentinel = say('<Blue-Eyes White Dragon>');
    await answerTo(sentinel);
    const answered = new Set(posts().map((post) => post.message.message_reference?.message_id));
    for (const message of ignored) expect(answered.has(message.id)).toBe(false);
  });

  it('sends nothing at all where Almanac may not post, and answers without art where it may not attach', async () => {
    const silent = newChannel(PermissionFlagsBits.SendMessages);
    const noFiles = newChannel(PermissionFlagsBits.AttachFiles);
    say('<Dark Magician>', silent);
    const post = await answerTo(say('<Dark Magician>', noFiles));
    expect(post.files).toEqual([]);
    expect(post.message.embeds[0]!.image).toBeUndefined();
    expect(post.message.content).toBe('Art not shown: this chat does not allow Almanac to attach files.');
    // The sentinel in the second channel was dispatched after the first: any request there would be in by now.
    expect(bot.discord.calls.filter((call) => call.path.includes(silent))).toEqual([]);
  });

  it('follows channel, role and member updates from the gateway, with nothing in discord.js’s caches', async () => {
    const { client } = bot.app;
    expect(client.channels.cache.size + client.guilds.cache.reduce((sum, guild) => sum + guild.roles.cache.size + guild.members.cache.size, 0)).toBe(0);
    const channel = newChannel();
    const everyone = (permissions: bigint) =>
      bot.discord.dispatch(GatewayDispatchEvents.GuildRoleUpdate, { guild_id: bot.discord.guildId, role: { id: bot.discord.guildId, name: '@everyone', permissions: String(permissions) } });
    const myRoles = (roles: string[]) =>
      bot.discord.dispatch(GatewayDispatchEvents.GuildMemberUpdate, { guild_id: bot.discord.guildId, user: BOT_USER, roles, joined_at: new Date(0).toISOString() });
    /** `<Dark Magician>` in the channel is answered, or is not: a sentinel in a DM, dispatched after it, bounds the wait. */
    const expectAnswered = async (expected: boolean) => {
      now += 11_000;
      const message = say('<Dark Magician>', channel);
      if (expected) {
        await answerTo(message);
        return;
      }
      await answerTo(bot.discord.userMessage({ content: '<Blue-Eyes White Dragon>', channel: 'dm' }));
      expect(posts().some((post) => post.message.message_reference?.message_id === message.id)).toBe(false);
    };
    const postingRole = '1356000000000000190';
    try {
      await expectAnswered(true);
      // An overwrite denying Almanac's posts, added to the channel, then taken away.
      const denied = [{ id: BOT_USER.id, type: OverwriteType.Member, allow: '0', deny: String(PermissionFlagsBits.SendMessages) }];
      const update = (overwrites: unknown[]) =>
        bot.discord.dispatch(GatewayDispatchEvents.ChannelUpdate, { id: channel, type: ChannelType.GuildText, guild_id: bot.discord.guildId, name: `channel-${channel}`, permission_overwrites: overwrites });
      update(denied);
      await expectAnswered(false);
      update([]);
      await expectAnswered(true);
      // @everyone loses Send Messages; a role that has it, given to Almanac, brings its posts back.
      everyone(MEMBER_PERMISSIONS & ~PermissionFlagsBits.SendMessages);
      await expectAnswered(false);
      bot.discord.dispatch(GatewayDispatchEvents.GuildRoleCreate, { guild_id: bot.discord.guildId, role: { id: postingRole, name: 'poster', permissions: String(PermissionFlagsBits.SendMessages) } });
      myRoles([postingRole]);
      await expectAnswered(true);
    } finally {
      everyone(MEMBER_PERMISSIONS);
      myRoles([]);
    }
  });

  it('leaves a channel alone for 10 minutes after Discord refused a post there (the cache was behind)', async () => {
    const channel = newChannel();
    bot.discord.respondWith((call) => call.path === `/channels/${channel}/messages`, { status: 403, body: { message: 'Missing Permissions', code: 50013 } });
    say('<Dark Magician>', channel);
    await vi.waitFor(() => expect(bot.logs.text).toContain('Discord refused a post in a channel'), { timeout: 10_000, interval: 20 });
    say('<Blue-Eyes White Dragon>', channel);
    await answerTo(say('<Blue-Eyes White Dragon>'));
    expect(bot.discord.calls.filter((call) => call.path.includes(channel))).toHaveLength(1);
  });

  it('answers in a thread', async () => {
    const post = await answerTo(bot.discord.userMessage({ content: '<Dark Magician>', channel: 'normalThread' }));
    expect(post.message.channel_id).toBe(bot.discord.channels.normalThread);
  });

  it('answers in the server’s preferred language, card text included', async () => {
    bot.discord.dispatch(GatewayDispatchEvents.GuildUpdate, { id: bot.discord.guildId, name: 'Almanac Test Guild', preferred_locale: 'fr' });
    try {
      const post = await answerTo(say('<Magicien Sombre>'));
      expect(titles(post)).toEqual(['Magicien Sombre']);
      expect(post.message.embeds[0]!.footer?.text).toContain('Français');
    } finally {
      bot.discord.dispatch(GatewayDispatchEvents.GuildUpdate, { id: bot.discord.guildId, name: 'Almanac Test Guild', preferred_locale: 'en-US' });
    }
  });

  it('answers a DM', async () => {
    const message = bot.discord.userMessage({ content: '<Dark Magician>', channel: 'dm' });
    expect(titles(await answerTo(message))).toEqual(['Dark Magician']);
  });

  it('gives a flooded channel at most 5 answers in 10 s, then answers again', async () => {
    const channel = newChannel();
    const skipped = () => bot.logs.lines.filter((line) => line.includes('the channel had its answers for now')).length;
    const skippedBefore = skipped();
    const flood = Array.from({ length: 40 }, (_, index) => say(`<Dark Magician> ${index}`, channel));
    const inChannel = () => posts().filter((post) => post.message.channel_id === channel);
    // Every message is accounted for: answered, or skipped (the log says so, without its text).
    await vi.waitFor(() => expect(skipped() - skippedBefore + inChannel().length).toBe(40), { timeout: 10_000, interval: 20 });
    expect(inChannel()).toHaveLength(5);
    expect(new Set(inChannel().map((post) => post.message.message_reference?.message_id))).toEqual(new Set(flood.slice(0, 5).map((message) => message.id)));

    now += 10_000;
    await answerTo(say('<Dark Magician>', channel));
    expect(inChannel()).toHaveLength(6);
  });

  it('holds the cap at posting over three floods in a row, however late art lets the posts go out', async () => {
    const channel = newChannel();
    // The author's own share of YGOPRODeck: the art waited for is downloaded, not refused.
    const author = { id: '1356000000000000777', username: 'flooder' };
    const skipped = () => bot.logs.lines.filter((line) => line.includes('the channel had its answers for now')).length;
    const skippedBefore = skipped();
    const inChannel = () => posts().filter((post) => post.message.channel_id === channel);
    /** Messages answered or skipped (the log says so) once `count` of them are. */
    const accountedFor = (count: number) =>
      vi.waitFor(() => expect(skipped() - skippedBefore + inChannel().length).toBeGreaterThanOrEqual(count), { timeout: 10_000, interval: 20 });
    const flood = () => {
      for (let index = 0; index < 20; index++) bot.discord.userMessage({ content: `<Abyss Actor - Comic Relief> ${index}`, channelId: channel, author });
    };
    const artPath = `/images/cards/${QUIRK_CARD_IDS.pendulum}.jpg`;

    // The first flood's answers wait for art not stored yet, while the next window opens and a
    // second flood comes: posted together, both would land in that window.
    ygoprodeck.server.slowMs = 60_000;
    ygoprodeck.server.mode = 'slow';
    try {
      flood();
      await accountedFor(15);
      await vi.waitFor(() => expect(ygoprodeck.requestsTo(artPath)).not.toHaveLength(0), { timeout: 10_000, interval: 20 });
      now += 10_000;
      flood();
      await accountedFor(30);
    } finally {
      ygoprodeck.server.releaseHeld();
    }
    await accountedFor(40);
    now += 10_000;
    flood();
    await accountedFor(60);

    // Every post's arrival, by the app's clock: at most 5 in any 10 s (the window slides, its start excluded).
    const arrivals = inChannel().map((post) => post.call.at);
    const mostInAWindow = Math.max(...arrivals.map((end) => arrivals.filter((at) => at > end - 10_000 && at <= end).length));
    expect(mostInAWindow).toBe(5);
    expect(arrivals).toHaveLength(10);
  });

  it('follows an edit of its message within 5 minutes, and deletes its answer with it', async () => {
    const message = say('<Dark Magician>');
    const answer = (await answerTo(message)).message;

    bot.discord.editUserMessage(message, '<Blue-Eyes White Dragon>, I meant');
    const edit = await bot.discord.waitUntil(() => bot.discord.channelEdits().find((write) => write.message.id === answer.id));
    expect(edit.message.embeds.map((embed) => embed.title)).toEqual(['Blue-Eyes White Dragon']);
    expect(edit.files.map((file) => file.name)).toEqual([`card-${BLUE_EYES}.jpg`]);

    // An edit that names the same cards (an embed unfurled, a word changed) changes nothing.
    bot.discord.editUserMessage(message, '<blue-eyes white  dragon>, I meant it');
    bot.discord.deleteUserMessage(message);
    await bot.discord.waitUntil(() => (bot.discord.channelMessage(answer.id) === undefined ? true : undefined));
    expect(bot.discord.channelEdits().filter((write) => write.message.id === answer.id)).toHaveLength(1);

    // An edit that names no card any more takes the answer away.
    const second = say('<Dark Magician>');
    const secondAnswer = (await answerTo(second)).message;
    bot.discord.editUserMessage(second, 'never mind');
    await bot.discord.waitUntil(() => (bot.discord.channelMessage(secondAnswer.id) === undefined ? true : undefined));
  });

  it('leaves its answer alone once the message is older than 5 minutes', async () => {
    const message = say('<Dark Magician>');
    const answer = (await answerTo(message)).message;
    now += 5 * 60_000 + 1;
    bot.discord.editUserMessage(message, '<Blue-Eyes White Dragon>');
    bot.discord.deleteUserMessage(message);
    await answerTo(say('<Ash Blossom & Joyous Spring>'));
    expect(bot.discord.channelMessage(answer.id)).toBeDefined();
    expect(bot.discord.channelEdits().filter((write) => write.message.id === answer.id)).toEqual([]);
  });

  it('never logged a message’s text, and asked YGOPRODeck’s API nothing', async () => {
    await vi.waitFor(() => expect(bot.logs.text).toContain('answered cards named inline'));
    expect(bot.logs.text).not.toContain(CANARY);
    expect(bot.logs.text).not.toContain('I meant');
    expect(ygoprodeck.requestsTo('/api/v7/cardinfo.php').filter((request) => request.query.has('name') || request.query.has('fname') || request.query.has('id'))).toEqual([]);
  });
});
