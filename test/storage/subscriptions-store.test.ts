import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/storage.js';
import { SubscriptionsStore } from '../../src/storage/subscriptions-store.js';
import { POSTGRES } from '../helpers/postgres-server.js';
import { openTestStorage } from '../scheduler/helpers.js';

/**
 * Wallpaper poll turns on a real database: callers asking at once — two processes on one
 * PostgreSQL database, or one process's concurrent posts — each get a turn of their own.
 */

const SPACING = 6_000;
const NOW = Date.UTC(2026, 10, 28, 9, 0, 1);

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Every turn distinct, on the spacing's grid, none before `earliest`, and together one unbroken run. */
function expectOwnTurns(slots: number[], earliest: number): void {
  const sorted = [...slots].sort((left, right) => left - right);
  expect(new Set(sorted).size).toBe(slots.length);
  for (const slot of sorted) expect(slot % SPACING).toBe(0);
  expect(sorted[0]).toBe(Math.ceil(earliest / SPACING) * SPACING);
  expect(sorted.at(-1)! - sorted[0]!).toBe((slots.length - 1) * SPACING);
}

describe('SubscriptionsStore.nextPollSlot', () => {
  it('gives 40 polls asking at once in one process 40 turns, 6 s apart', async () => {
    const opened = await openTestStorage('sqlite');
    close = opened.close;
    const slots = await Promise.all(Array.from({ length: 40 }, () => opened.store.nextPollSlot(NOW, SPACING)));
    expectOwnTurns(slots, NOW);
    // A later ask queues after them; one past them starts at its own time.
    expect(await opened.store.nextPollSlot(NOW, SPACING)).toBe(Math.max(...slots) + SPACING);
    expect(await opened.store.nextPollSlot(NOW + 3_600_000, SPACING)).toBe(Math.ceil((NOW + 3_600_000) / SPACING) * SPACING);
  });

  it.skipIf(!POSTGRES.installed)('gives two processes on one PostgreSQL database asking at once turns of their own', async () => {
    const opened = await openTestStorage('postgres');
    const other = openStorage({ databaseUrl: opened.url, dataDir: '/nonexistent' });
    close = async () => {
      await other.close();
      await opened.close();
    };
    const second = new SubscriptionsStore(other.db);
    const slots = await Promise.all(Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? opened.store : second).nextPollSlot(NOW, SPACING)));
    expectOwnTurns(slots, NOW);
  });

  it('prunes the turns before the cutoff', async () => {
    const opened = await openTestStorage('sqlite');
    close = opened.close;
    const first = await opened.store.nextPollSlot(NOW, SPACING);
    await opened.store.prune({ claimsBefore: 0, pollTurnsBefore: first / SPACING + 1, wallpapersBefore: 0, decksBefore: 0 });
    // The pruned turn is free again.
    expect(await opened.store.nextPollSlot(NOW, SPACING)).toBe(first);
  });
});
