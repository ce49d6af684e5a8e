import { describe, expect, it } from 'vitest';
import { MemberShareSpent } from '../../../src/interaction/errors.js';
import { UpstreamError } from '../../../src/interaction/upstream-error.js';
import { DECK_ART_BACKGROUND, DeckArt } from '../../../src/services/ygoprodeck/deck-art.js';
import { LocalMemberShareLedger } from '../../../src/state/member-share-ledger.js';

/**
 * A store where ids below 100 are stored, 404 is missing upstream, 500-599 cannot be reached, and
 * the member's share allows `shareLimit` downloads.
 */
function harness(shareLimit: number) {
  let now = 0;
  const downloads: { id: number; at: number; onShare: boolean }[] = [];
  const unreachable: number[] = [];
  let spent = 0;
  const fetch = async (id: number, share?: { beforeRequest?: () => Promise<void> }) => {
    if (id < 100) return Buffer.from(`stored ${id}`);
    if (id === 404) throw new UpstreamError('ygoprodeck', 'not_found', 'no such image');
    await share?.beforeRequest?.();
    if (id >= 500 && id < 600) {
      unreachable.push(id);
      throw new UpstreamError('ygoprodeck', 'unavailable', 'connection refused');
    }
    downloads.push({ id, at: now, onShare: share !== undefined });
    return Buffer.from(`downloaded ${id}`);
  };
  const share = {
    beforeRequest: async () => {
      if (++spent > shareLimit) throw new MemberShareSpent('ygoprodeck', shareLimit, 5_000);
    },
  };
  const ledger = new LocalMemberShareLedger({ name: 'deck-art-background', ...DECK_ART_BACKGROUND, now: () => now });
  const art = new DeckArt({
    fetch,
    background: { take: async (key) => ledger.take(key) },
    // The clock moves on instead of the test waiting.
    wait: async (ms) => {
      now += ms;
    },
  });
  return { art, share, downloads, unreachable };
}

describe('DeckArt', () => {
  it('takes stored art free and what the share covers now; the rest is pending, art missing upstream is neither', async () => {
    const { art, share, downloads } = harness(2);
    const gathered = await art.gather([1, 2, 1, 101, 102, 103, 104, 404], share);
    expect([...gathered.art.keys()].sort((a, b) => a - b)).toEqual([1, 2, 101, 102]);
    expect(gathered.pending).toEqual([103, 104]);
    expect(downloads.every((download) => download.onShare)).toBe(true);
  });

  it('completes the rest in the background, never on the share, at no more than half of YGOPRODeck’s pace', async () => {
    const { art, share, downloads } = harness(0);
    const ids = Array.from({ length: 20 }, (_, index) => 200 + index);
    const gathered = await art.gather(ids, share);
    expect(gathered.pending).toHaveLength(20);
    const complete = await art.complete(gathered);
    expect(complete.size).toBe(20);
    expect(downloads.some((download) => download.onShare)).toBe(false);
    for (const { at } of downloads) {
      expect(downloads.filter((other) => other.at >= at && other.at < at + DECK_ART_BACKGROUND.windowMs).length).toBeLessThanOrEqual(4);
    }
    expect(DECK_ART_BACKGROUND).toEqual({ limit: 4, windowMs: 1_000 });
  });

  it('asks for no more of a deck’s art once YGOPRODeck cannot be reached; art missing upstream does not stop it', async () => {
    const { art, share, downloads, unreachable } = harness(0);
    const gathered = await art.gather([404, 201, 501, 502, 503], share);
    expect(gathered.pending).toEqual([201, 501, 502, 503]);
    unreachable.length = 0;
    const complete = await art.complete(gathered);
    expect([...complete.keys()]).toEqual([201]);
    expect(unreachable).toEqual([501]);
    expect(downloads.map((download) => download.id)).toEqual([201]);
  });

  it('stops the background once closed: the deck is completed with what it has', async () => {
    const { art, share } = harness(0);
    const gathered = await art.gather([301, 302], share);
    art.close();
    expect((await art.complete(gathered)).size).toBe(0);
  });
});
