import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subscribe } from '../../../commands/subscribe/index.js';
import type { ChatInputContext } from '../../../src/interaction/context.js';
import { UserError } from '../../../src/interaction/errors.js';
import { en } from '../../../src/i18n/en.js';
import { fr } from '../../../src/i18n/fr.js';
import { quoteUserText } from '../../../src/render/user-text.js';
import { Subscriptions } from '../../../src/scheduler/subscriptions.js';
import type { SubscriptionsStore } from '../../../src/storage/subscriptions-store.js';
import { autocompleteContext, chatContext, stubServices } from '../../helpers/command-contexts.js';
import { openTestStorage } from '../../scheduler/helpers.js';

/**
 * `/subscribe`'s handlers on a real SQLite database: who may, what input is refused (with a
 * sentence, and nothing stored), and what list and remove show.
 */

const NOW = Date.UTC(2026, 5, 1, 12);
const GUILD = '900000000000000001';
const CHANNEL = { id: '900000000000000002', kind: 'guild' as const, ageRestricted: false, guildId: GUILD };

let store: SubscriptionsStore;
let close: () => Promise<void>;
let app: ReturnType<typeof stubServices>;

beforeEach(async () => {
  ({ store, close } = await openTestStorage('sqlite'));
  app = stubServices({ subscriptions: new Subscriptions(store, () => NOW), cards: { ready: false, archetypes: () => ['Blue-Eyes'] } }, NOW);
});
afterEach(() => close());

/** A moderator's context in the test channel, where Almanac may post (each may be overridden). */
function moderator(subcommand: string, values: Record<string, string> = {}, changes: Partial<ChatInputContext> = {}): ChatInputContext {
  const { ctx } = chatContext(subcommand, values, { channel: CHANNEL });
  return { ...ctx, memberPermissions: { manageServer: false, manageChannels: true }, appPermissions: { attachFiles: true, postEmbeds: true }, ...changes };
}

async function refusal(ctx: ChatInputContext, messages = en): Promise<string> {
  const error = await Promise.resolve(subscribe.execute(ctx, app)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UserError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.textIn(messages);
}

describe('/subscribe', () => {
  it('subscribes the channel at a time in a zone, and lists it with its next post', async () => {
    const reply = await subscribe.execute(moderator('card-of-the-day', { time: '9:30', timezone: 'europe/paris', type: 'spell' }), app);
    expect(reply.ephemeral).toBe(true);
    // 09:30 in Paris (CEST) on 2 June is 07:30 UTC; it is 12:00 UTC on 1 June.
    const first = Date.UTC(2026, 5, 2, 7, 30) / 1000;
    expect(reply.content).toContain(en.subscribe.added('Card of the day', '09:30', 'Europe/Paris', `<t:${first}:f> (<t:${first}:R>)`));
    const [stored] = await store.forChannel(CHANNEL.id);
    expect(JSON.parse(stored!.options)).toEqual({ filters: { type: 'spell' } });
    const listed = await subscribe.execute(moderator('list'), app);
    expect(listed.content).toContain('Card of the day, every day at 09:30 (Europe/Paris)');
    expect(listed.content).toContain(`Next post <t:${first}:f>`);
  });

  it('lists a paused subscription with the reason, and removes it by its autocompleted id', async () => {
    await subscribe.execute(moderator('wallpaper-of-the-day', { time: '18:05', timezone: 'UTC' }), app);
    const [row] = await store.forChannel(CHANNEL.id);
    await store.finish(row!, row!.next_due_at!, { state: 'skipped', nextDueAt: row!.next_due_at! + 86_400_000, refused: { pauseReason: 'unknown-channel' } }, NOW);
    expect((await subscribe.execute(moderator('list'), app)).content).toContain(en.subscribe.paused(en.subscribe.pauseReasons['unknown-channel']));
    const choices = await subscribe.autocomplete!({ ...autocompleteContext('remove', { name: 'subscription', value: 'wall' }, {}, { channel: CHANNEL }), memberPermissions: { manageServer: false, manageChannels: true } }, app);
    expect(choices).toEqual([{ name: 'Wallpaper of the day, every day at 18:05 (UTC)', value: String(row!.id) }]);
    const removed = await subscribe.execute(moderator('remove', { subscription: String(row!.id) }), app);
    expect(removed.content).toBe(en.subscribe.removed('Wallpaper of the day, every day at 18:05 (UTC)'));
    expect(await store.forChannel(CHANNEL.id)).toEqual([]);
    expect(await refusal(moderator('remove', { subscription: String(row!.id) }))).toBe(en.subscribe.noSuchSubscription);
  });

  it.each([
    ['25:61', 'UTC', en.subscribe.badTime(quoteUserText('25:61'))],
    ['24:00', 'UTC', en.subscribe.badTime(quoteUserText('24:00'))],
    ['noon', 'UTC', en.subscribe.badTime(quoteUserText('noon'))],
    ['09:00', 'Mars/Olympus_Mons', en.subscribe.badZone(quoteUserText('Mars/Olympus_Mons'))],
    ['09:00', '../../etc/passwd', en.subscribe.badZone(quoteUserText('../../etc/passwd'))],
  ])('refuses %s in %s with a sentence, storing nothing', async (time, zone, sentence) => {
    expect(await refusal(moderator('wallpaper-of-the-day', { time, timezone: zone }))).toBe(sentence);
    expect(await store.forChannel(CHANNEL.id)).toEqual([]);
  });

  it('refuses a zone of 1,000 characters with a short sentence, and autocompletes nothing for it', async () => {
    const long = 'A'.repeat(1000);
    const sentence = await refusal(moderator('card-of-the-day', { time: '09:00', timezone: long }));
    expect(sentence.length).toBeLessThan(200);
    expect(sentence).toContain('is not a time zone Almanac knows');
    expect(await subscribe.autocomplete!(autocompleteContext('card-of-the-day', { name: 'timezone', value: long }), app)).toEqual([]);
    expect(await store.forChannel(CHANNEL.id)).toEqual([]);
  });

  it('autocompletes zones by any part of their name', async () => {
    const choices = await subscribe.autocomplete!(autocompleteContext('card-of-the-day', { name: 'timezone', value: 'new york' }), app);
    expect(choices).toContainEqual({ name: 'America/New_York', value: 'America/New_York' });
  });

  it('refuses a channel Almanac cannot post in, a member without Manage Channels, and DMs: privately, in their language, storing nothing', async () => {
    const values = { time: '09:00', timezone: 'UTC' };
    expect(await refusal(moderator('wallpaper-of-the-day', values, { appPermissions: { attachFiles: true, postEmbeds: false } }))).toBe(en.subscribe.botCannotPost);
    expect(await refusal(moderator('wallpaper-of-the-day', values, { memberPermissions: { manageServer: true, manageChannels: false } }), fr)).toBe(fr.subscribe.needsManageChannels);
    expect(await refusal(moderator('list', {}, { memberPermissions: { manageServer: false } }))).toBe(en.subscribe.needsManageChannels);
    expect(await refusal(moderator('wallpaper-of-the-day', values, { channel: { id: 'dm', kind: 'dm', ageRestricted: false } }))).toBe(en.subscribe.notInServer);
    expect(await store.forChannel(CHANNEL.id)).toEqual([]);
  });

  it('subscribes to new card sets, lists it as waiting for one, and refuses a channel where Almanac cannot attach their images', async () => {
    expect(await refusal(moderator('new-sets', {}, { appPermissions: { attachFiles: false, postEmbeds: true } }), fr)).toBe(fr.subscribe.botCannotAttach);
    expect(await store.forChannel(CHANNEL.id)).toEqual([]);
    const reply = await subscribe.execute(moderator('new-sets'), app);
    expect(reply).toEqual({ ephemeral: true, content: en.subscribe.addedNewSets('New card sets, posted when YGOPRODeck lists one') });
    const [stored] = await store.forChannel(CHANNEL.id);
    expect(stored).toMatchObject({ kind: 'new-sets', next_due_at: null });
    expect((await subscribe.execute(moderator('list'), app)).content).toContain(`- New card sets, posted when YGOPRODeck lists one\n  ${en.subscribe.newSetsWaiting}`);
  });

  it('says it is unavailable where Almanac has no bot token (HTTP-only deployments) or no database', async () => {
    app = stubServices({ subscriptions: undefined }, NOW);
    expect(await refusal(moderator('list'))).toBe(en.subscribe.unavailable);
  });

  it('refuses an eleventh subscription in the channel', async () => {
    for (let index = 0; index < 10; index++) await subscribe.execute(moderator('wallpaper-of-the-day', { time: '09:00', timezone: 'UTC' }), app);
    expect(await refusal(moderator('wallpaper-of-the-day', { time: '09:00', timezone: 'UTC' }))).toBe(en.subscribe.channelFull(10));
    expect(await store.forChannel(CHANNEL.id)).toHaveLength(10);
  });
});
