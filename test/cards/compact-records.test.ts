import { describe, expect, it } from 'vitest';
import { CompactRecords } from '../../src/cards/compact-records.js';

const records = [{ id: 1, name: 'Dark Magician' }, { id: 2, name: 'Magicien Sombre — « é »' }, { id: 3, name: '' }];
const anything = (record: unknown): record is object => typeof record === 'object';

describe('CompactRecords.written', () => {
  it('takes a body with the line starts `of` wrote, and reads the same records', () => {
    const written = CompactRecords.lines(records);
    // What the scan of a snapshot's body finds, byte offsets (the second name is not ASCII).
    expect(written.starts).toEqual(CompactRecords.parse(written.body, anything).starts);
    const taken = CompactRecords.written<(typeof records)[number]>(written.body, written.starts);
    expect([taken.length, taken.get(1), taken.read(2)]).toEqual([3, records[1], records[2]]);
  });

  it('takes an empty body with its one start', () => {
    const empty = CompactRecords.lines([]);
    expect(CompactRecords.written(empty.body, empty.starts).length).toBe(0);
  });

  it('refuses line starts that cannot be the body’s', () => {
    const { body, starts } = CompactRecords.lines(records);
    const wrong = (change: (copy: Uint32Array) => Uint32Array) => () => CompactRecords.written(body, change(Uint32Array.from(starts)));
    // Another body's length, a record left out, a start inside a line, starts out of order, none at all.
    expect(wrong((copy) => copy.map((start, at) => (at === copy.length - 1 ? start - 1 : start)))).toThrow(/line starts/);
    expect(wrong((copy) => copy.filter((_start, at) => at !== copy.length - 1))).toThrow(/line starts/);
    expect(wrong((copy) => copy.map((start, at) => (at === 1 ? start + 1 : start)))).toThrow(/line starts/);
    expect(wrong((copy) => Uint32Array.of(copy[0]!, copy[2]!, copy[1]!, copy[3]!))).toThrow(/line starts/);
    expect(wrong(() => new Uint32Array())).toThrow(/line starts/);
    expect(wrong((copy) => copy.subarray(1))).toThrow(/line starts/);
  });
});
