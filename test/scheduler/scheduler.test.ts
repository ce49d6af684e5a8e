import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postNonce } from '../../src/schedule/time-of-day.js';
import { LEASE_MS, REFUSAL_RETRY_MS } from '../../src/scheduler/scheduler.js';
import type { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';
import { POSTGRES } from '../helpers/postgres-server.js';
import { CHANNEL, openTestStorage, RecordingPoster, schedulerFor, subscribe, TestClock } from './helpers.js';

/**
 * The scheduler against a real SQLite file and a real PostgreSQL, with a clock the test moves:
 * each occurrence posted once at its time in its zone (DST included), a missed post made or
 * skipped, a crashed claim taken over with its nonce or skipped past the window, a refused channel
 * paused with its reason.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !POSTGRES.installed)(`the scheduler on ${dialect}`, () => {
    let store: SubscriptionsStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await openTestStorage(dialect));
    });
    afterEach(() => close());

    it('posts each subscription at its time in its zone for two days across the spring DST change', async () => {
      const clock = new TestClock(Date.UTC(2026, 2, 28, 12, 0));
      const poster = new RecordingPoster(clock.now);
      const { scheduler } = schedulerFor(store, poster, clock);
      const paris = await subscribe(store, '09:00', 'Europe/Paris', clock.time, 'c-paris');
      const newYork = await subscribe(store, '09:00', 'America/New_York', clock.time, 'c-ny');
      const tokyo = await subscribe(store, '09:00', 'Asia/Tokyo', clock.time, 'c-tokyo');
      // 02:30 does not exist in Paris on 29 March 2026 (02:00 → 03:00): it posts at 03:30.
      const gap = await subscribe(store, '02:30', 'Europe/Paris', clock.time, 'c-gap');
      const end = Date.UTC(2026, 2, 30, 12, 0);
      while (clock.time < end) {
        await scheduler.tick();
        clock.advance(5 * MINUTE);
      }
      const times = (channel: string) => poster.posts.filter((post) => post.channelId === channel).map((post) => new Date(post.at).toISOString());
      expect(times(paris.channel_id)).toEqual(['2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
      expect(times(newYork.channel_id)).toEqual(['2026-03-28T13:00:00.000Z', '2026-03-29T13:00:00.000Z']);
      expect(times(tokyo.channel_id)).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-30T00:00:00.000Z']);
      expect(times(gap.channel_id)).toEqual(['2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
      expect(new Set(poster.posts.map((post) => post.nonce)).size).toBe(poster.posts.length);
    });

    it('makes a post missed while every process was down once when under an hour late, and skips it when later', async () => {
      const start = Date.UTC(2026, 5, 1, 8, 0);
      const clock = new TestClock(start);
      const poster = new RecordingPoster(clock.now);
      const { scheduler, results } = schedulerFor(store, poster, clock);
      const late = await subscribe(store, '09:00', 'UTC', start, 'c-late');
      const later = await subscribe(store, '09:30', 'UTC', start, 'c-later');
      // Down from 08:00 to 10:40: 09:30 is 70 minutes late, 09:00 100 minutes.
      clock.time = Date.UTC(2026, 5, 1, 10, 40);
      await scheduler.tick();
      await scheduler.tick();
      expect(poster.posts.map((post) => post.channelId)).toEqual([]);
      expect(results.sort()).toEqual(['missed', 'missed']);
      expect((await store.byId(late.id))!.next_due_at).toBe(Date.UTC(2026, 5, 2, 9, 0));
      expect((await store.byId(later.id))!.next_due_at).toBe(Date.UTC(2026, 5, 2, 9, 30));
      // Down again across the next day's 09:00, back at 09:25: posted once, 25 minutes late.
      clock.time = Date.UTC(2026, 5, 2, 9, 25);
      await scheduler.tick();
      await scheduler.tick();
      expect(poster.posts.map((post) => post.channelId)).toEqual(['c-late']);
    });

    it('pauses a subscription whose channel Discord refuses three times in a row, with the reason', async () => {
      const clock = new TestClock(Date.UTC(2026, 5, 1, 8, 59));
      const poster = new RecordingPoster(clock.now);
      poster.refusing.set(CHANNEL, { ok: false, refused: 'unknown-channel', status: 404 });
      const { scheduler, results } = schedulerFor(store, poster, clock);
      const subscription = await subscribe(store, '09:00', 'UTC', clock.time);
      clock.advance(MINUTE);
      for (let attempt = 0; attempt < 5; attempt++) {
        await scheduler.tick();
        clock.advance(REFUSAL_RETRY_MS);
      }
      expect(results).toEqual(['refused', 'refused', 'refused']);
      const stored = (await store.forChannel(CHANNEL))[0]!;
      expect(stored.id).toBe(subscription.id);
      expect(stored.pause_reason).toBe('unknown-channel');
      expect(stored.paused_at).toBe(Date.UTC(2026, 5, 1, 9, 20));
      expect(stored.consecutive_failures).toBe(3);
    });

    it('a post resets the count of refusals', async () => {
      const clock = new TestClock(Date.UTC(2026, 5, 1, 9, 0));
      const poster = new RecordingPoster(clock.now);
      poster.refusing.set(CHANNEL, { ok: false, refused: 'missing-access', status: 403 });
      const { scheduler } = schedulerFor(store, poster, clock);
      const subscription = await subscribe(store, '09:01', 'UTC', clock.time);
      clock.advance(MINUTE);
      await scheduler.tick();
      clock.advance(REFUSAL_RETRY_MS);
      await scheduler.tick();
      poster.refusing.clear();
      clock.advance(REFUSAL_RETRY_MS);
      await scheduler.tick();
      const stored = (await store.byId(subscription.id))!;
      expect([stored.consecutive_failures, stored.paused_at, poster.posts.length]).toEqual([0, null, 1]);
    });

    it('takes over a crashed claim within the nonce window: Discord returns the first message for the one already posted', async () => {
      const dueAt = Date.UTC(2026, 5, 1, 9, 0);
      const clock = new TestClock(dueAt - MINUTE);
      const poster = new RecordingPoster(clock.now);
      const { scheduler, results } = schedulerFor(store, poster, clock);
      const retried = await subscribe(store, '09:00', 'UTC', clock.time, 'c-retried');
      const unposted = await subscribe(store, '09:00', 'UTC', clock.time, 'c-unposted');
      clock.time = dueAt;
      // Another process claimed both, posted the first and died before marking either.
      for (const id of [retried.id, unposted.id]) expect(await store.claim(id, dueAt, 'dead', dueAt + LEASE_MS, postNonce(id, dueAt))).toBe(true);
      await poster.post('c-retried', { content: 'a card' }, postNonce(retried.id, dueAt));
      await scheduler.tick();
      expect(results).toEqual([]);
      clock.advance(LEASE_MS + 1_000);
      await scheduler.tick();
      expect(poster.posts.map((post) => post.channelId)).toEqual(['c-retried', 'c-unposted']);
      expect(results.sort()).toEqual(['posted', 'posted']);
    });

    it('skips an occurrence whose claim expired past the nonce window rather than post it again', async () => {
      const dueAt = Date.UTC(2026, 5, 1, 9, 0);
      const clock = new TestClock(dueAt - MINUTE);
      const poster = new RecordingPoster(clock.now);
      const { scheduler, results } = schedulerFor(store, poster, clock);
      const subscription = await subscribe(store, '09:00', 'UTC', clock.time);
      clock.time = dueAt;
      await store.claim(subscription.id, dueAt, 'dead', dueAt + LEASE_MS, postNonce(subscription.id, dueAt));
      clock.advance(10 * MINUTE);
      await scheduler.tick();
      expect(results).toEqual(['expired']);
      expect(poster.posts).toEqual([]);
      expect((await store.byId(subscription.id))!.next_due_at).toBe(Date.UTC(2026, 5, 2, 9, 0));
      expect(await store.claimOf(subscription.id, dueAt)).toMatchObject({ state: 'skipped' });
    });

    it('deletes a subscription paused for 30 days in HTTP-only deployments only, and wallpaper history after 90 days', async () => {
      const clock = new TestClock(Date.UTC(2026, 5, 1, 9, 0));
      const poster = new RecordingPoster(clock.now);
      const subscription = await subscribe(store, '09:30', 'UTC', clock.time);
      const kept = await subscribe(store, '09:30', 'UTC', clock.time, 'c-kept');
      await store.finish(subscription, subscription.next_due_at!, { state: 'skipped', nextDueAt: subscription.next_due_at! + DAY, refused: { pauseReason: 'missing-access' } }, clock.time);
      await store.recordPosted(subscription.guild_id, 'c-kept', 'wallpaper', 'w1', clock.time);
      const gateway = schedulerFor(store, poster, clock, { deletePausedAfterRetention: false }).scheduler;
      const http = schedulerFor(store, poster, clock, { deletePausedAfterRetention: true }).scheduler;
      clock.advance(29 * DAY);
      await http.prune();
      expect(await store.byId(subscription.id)).toBeDefined();
      clock.advance(2 * DAY);
      await gateway.prune();
      expect(await store.byId(subscription.id)).toBeDefined();
      await http.prune();
      expect(await store.byId(subscription.id)).toBeUndefined();
      expect(await store.byId(kept.id)).toBeDefined();
      expect(await store.postedIds('c-kept', 'wallpaper')).toEqual(['w1']);
      clock.advance(60 * DAY);
      await gateway.prune();
      expect(await store.postedIds('c-kept', 'wallpaper')).toEqual([]);
    });

    it('refuses an eleventh subscription in a channel and a fifty-first in a server, storing nothing', async () => {
      const now = Date.UTC(2026, 5, 1);
      for (let index = 0; index < 10; index++) await subscribe(store, '09:00', 'UTC', now);
      await expect(subscribe(store, '09:00', 'UTC', now)).rejects.toThrow('channel-full');
      for (let index = 0; index < 40; index++) await subscribe(store, '09:00', 'UTC', now, `c-${index % 8}`);
      await expect(subscribe(store, '09:00', 'UTC', now, 'c-new')).rejects.toThrow('guild-full');
      expect(await store.forChannel('c-new')).toEqual([]);
    });
  });
}
