import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from './ygoprodeck.js';

describe('the fake YGOPRODeck, whole-database bodies', () => {
  let fake: FakeYgoprodeck | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await fake?.close();
  });

  it('builds them ahead with prepareWholeDumps, so that a download later only writes them', async () => {
    const cards = loadCardDump().slice(0, 300);
    Object.freeze(cards);
    fake = await startFakeYgoprodeck({ cards });
    fake.prepareWholeDumps();
    const stringify = vi.spyOn(JSON, 'stringify');
    for (const query of ['misc=yes', 'language=fr', 'language=pt']) {
      const response = await fetch(`${fake.url}/api/v7/cardinfo.php?${query}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: unknown[] };
      expect(body.data.length).toBeGreaterThan(0);
    }
    // Building a body is stringifying `{ data: [...] }` (the client's own calls are something else).
    const bodiesBuilt = stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'data' in value);
    expect(bodiesBuilt).toEqual([]);
  });

  it('refuses to prepare them for a card list a test may still change (they are memoised per list)', async () => {
    fake = await startFakeYgoprodeck({ cards: loadCardDump().slice(0, 10) });
    expect(() => fake!.prepareWholeDumps()).toThrow(/frozen/);
  });
});
