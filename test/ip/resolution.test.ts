import { describe, expect, it } from 'vitest';
import type { LookupTarget } from '../../src/ip/lookup-entry.js';
import { planLocations, type NameResolution } from '../../src/ip/resolution.js';

const name = (value: string): LookupTarget => ({ kind: 'name', name: value, display: value });
const address = (value: string): LookupTarget => ({ kind: 'address', address: value });
const resolved = (...addresses: string[]): NameResolution => ({ ok: true, addresses });

describe('planLocations', () => {
  it('locates typed addresses and each name’s addresses, grouped in the order typed', () => {
    const plan = planLocations(
      [name('a.example'), address('8.8.8.8'), name('b.example')],
      new Map([
        ['a.example', resolved('81.2.69.142', '2001:4860:4860::8888')],
        ['b.example', resolved('202.12.27.33')],
      ]),
      10,
    );
    expect(plan.addresses).toEqual([
      { address: '81.2.69.142', from: 'a.example' },
      { address: '2001:4860:4860::8888', from: 'a.example' },
      { address: '8.8.8.8', from: null },
      { address: '202.12.27.33', from: 'b.example' },
    ]);
    expect(plan).toMatchObject({ notes: [], notLocated: 0 });
  });

  it('gives every name its first address before any name its second, and counts what the cap left out', () => {
    const many = Array.from({ length: 300 }, (_, index) => `9.9.${index >> 8}.${index & 255}`);
    const plan = planLocations([name('big.example'), name('small.example')], new Map([['big.example', resolved(...many)], ['small.example', resolved('8.8.4.4')]]), 10);
    expect(plan.addresses).toHaveLength(10);
    expect(plan.addresses.at(-1)).toEqual({ address: '8.8.4.4', from: 'small.example' });
    expect(plan.addresses.slice(0, 9).map((planned) => planned.address)).toEqual(many.slice(0, 9));
    expect(plan.notLocated).toBe(291);
  });

  it('never locates nor shows a name’s private addresses: a name pointing only there is a note', () => {
    const plan = planLocations(
      [name('nas.example'), name('mixed.example'), name('gone.example')],
      new Map<string, NameResolution>([
        ['nas.example', resolved('10.0.0.5', 'fd00::5')],
        ['mixed.example', resolved('127.0.0.1', '8.8.8.8')],
        ['gone.example', { ok: false, failure: 'noSuchName' }],
      ]),
      10,
    );
    expect(plan.addresses).toEqual([{ address: '8.8.8.8', from: 'mixed.example' }]);
    expect(plan.notes).toEqual([
      { kind: 'private', name: 'nas.example' },
      { kind: 'unresolved', name: 'gone.example', failure: 'noSuchName' },
    ]);
    expect(plan.notLocated).toBe(0);
  });

  it('locates an address once, however many entries lead to it', () => {
    const plan = planLocations([address('8.8.8.8'), name('dns.example')], new Map([['dns.example', resolved('8.8.8.8')]]), 10);
    expect(plan.addresses).toEqual([{ address: '8.8.8.8', from: null }]);
  });
});
