import { describe, expect, it } from 'vitest';
import { CompactRecords } from '../../../src/cards/compact-records.js';
import { normaliseCards } from '../../../src/cards/normalise-card.js';
import { banlistedCards, loadedCards, lookupsOfRecords } from '../../../src/services/ygoprodeck/loaded-cards.js';
import { loadCardDump } from '../../helpers/card-dump.js';

describe('loaded cards', () => {
  it('lists the cards on any ban list with what a list needs, from the summaries', async () => {
    // A slice of the real dump: enough listed cards among many that are not.
    const { cards } = normaliseCards(loadCardDump().slice(0, 3_000));
    const records = CompactRecords.of(cards);
    const set = loadedCards(records, await lookupsOfRecords(records), { format: 'test', databaseVersion: '1', downloadedAt: 0, cardCount: cards.length, skippedCards: 0, sha256: '', bytes: 0 } as never, 0);
    const listed = banlistedCards(set);
    const expected = cards.filter((card) => Object.keys(card.banlist).length > 0);
    expect(listed.length).toBe(expected.length);
    expect(listed.length).toBeGreaterThan(20);
    expect(listed.length).toBeLessThan(cards.length / 5);
    expect(listed).toEqual(expected.map(({ id, name, banlist }) => ({ id, name, banlist })));
    // Only what a list needs is kept of each card.
    expect(Object.keys(listed[0]!).sort()).toEqual(['banlist', 'id', 'name']);
  });
});
