import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenesysPool, genesysEntriesOf, isGenesysEntry, outsideGenesys } from '../../src/cards/genesys.js';

describe('Genesys pool', () => {
  it('finds every card’s points by passcode, 0 included, and nothing for a card outside it', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 600_000_000 }), points: fc.integer({ min: 0, max: 100 }) }), { selector: (entry) => entry.id }), fc.integer({ min: 1, max: 600_000_000 }), (entries, probe) => {
        const pool = new GenesysPool(entries.map((entry) => ({ ...entry, name: `Card ${entry.id}` })));
        const byId = new Map(entries.map((entry) => [entry.id, entry.points]));
        for (const entry of entries) expect(pool.pointsOf(entry.id)).toBe(entry.points);
        expect(pool.pointsOf(probe)).toBe(byId.get(probe));
        expect(pool.pointed().map((entry) => entry.id).sort((a, b) => a - b)).toEqual(entries.filter((entry) => entry.points > 0).map((entry) => entry.id).sort((a, b) => a - b));
      }),
    );
  });

  it('reads a pool card’s points from misc_info, 0 when absent, and leaves out (counted) what does not fit, never throwing', () => {
    const read = genesysEntriesOf([
      { id: 55144522, name: 'Pot of Greed', misc_info: [{ genesys_points: 30 }] },
      { id: 46986414, name: ' Dark Magician ', misc_info: [{ views: 1 }] },
      { id: 1, name: 'Bad', misc_info: [{ genesys_points: -1 }] },
      { id: 'x', name: 'Bad id' },
      null,
    ]);
    expect(read.entries).toEqual([
      { id: 55144522, name: 'Pot of Greed', points: 30 },
      { id: 46986414, name: 'Dark Magician', points: 0 },
    ]);
    expect(read.skipped).toBe(3);
    fc.assert(
      fc.property(fc.array(fc.anything()), (raws) => {
        const { entries, skipped } = genesysEntriesOf(raws);
        expect(entries.length + skipped).toBe(raws.length);
        for (const entry of entries) expect(isGenesysEntry(entry)).toBe(true);
      }),
    );
  });

  it('keeps Link and Pendulum monsters outside, whatever their frame', () => {
    expect(['link', 'effect_pendulum', 'xyz_pendulum', 'normal_pendulum'].every((frameType) => outsideGenesys({ frameType }))).toBe(true);
    expect(['effect', 'xyz', 'spell', 'trap', 'synchro'].some((frameType) => outsideGenesys({ frameType }))).toBe(false);
  });
});
