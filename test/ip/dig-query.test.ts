import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../src/ip/address.js';
import { withoutPrivateAddresses } from '../../src/ip/dig-answer.js';
import { DIG_TYPES, digRefreshText, parseDigQuestion, parseDigRefreshText, reverseNameOf } from '../../src/ip/dig-query.js';
import { describeSpecialRange } from '../../src/ip/special-ranges.js';
import { reverseName } from '../fakes/dns.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { PUBLIC_DOMAIN } from '../helpers/ip-fixtures.js';

const RUNS = fuzzRuns(1_000);

describe('parseDigQuestion', () => {
  it('defaults to A for a name and PTR for an address, and takes any listed type in any case', () => {
    expect(parseDigQuestion('Example.COM.', null)).toEqual({ ok: true, question: { name: 'example.com', display: 'example.com', type: 'A' } });
    expect(parseDigQuestion('_dmarc.example.com', 'txt')).toMatchObject({ ok: true, question: { name: '_dmarc.example.com', type: 'TXT' } });
    expect(parseDigQuestion('8.8.4.4', null)).toEqual({ ok: true, question: { name: '4.4.8.8.in-addr.arpa', display: '4.4.8.8.in-addr.arpa', type: 'PTR' } });
    expect(parseDigQuestion('example.com', 'ANY')).toEqual({ ok: false, problem: 'unknownType' });
    expect(parseDigQuestion('10.0.0.1', null)).toEqual({ ok: false, problem: 'specialAddress' });
    expect(parseDigQuestion('db.internal', 'A')).toEqual({ ok: false, problem: 'privateName' });
    expect(parseDigQuestion('host', 'A')).toEqual({ ok: false, problem: 'privateName' });
  });

  it('writes reverse names as the DNS fake (and the RFCs) do, for every address', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (typed) => {
        const parsed = parseIpAddress(typed);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        expect(reverseNameOf(parsed.address, parsed.version)).toBe(reverseName(parsed.address));
      }),
      { numRuns: RUNS },
    );
  });

  it('lets nothing through but a public reverse name or a public, well-formed name, and a listed type', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.option(fc.string({ maxLength: 8 }), { nil: null }), (name, type) => {
        const parsed = parseDigQuestion(name, type);
        if (!parsed.ok) return;
        const { question } = parsed;
        expect(DIG_TYPES).toContain(question.type);
        expect(question.name).toMatch(/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/);
        expect(question.name.length).toBeLessThanOrEqual(253);
        const address = parseIpAddress(name);
        if (address.ok) expect(describeSpecialRange(address.address)).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it('reads back what a Refresh button stored, for any public name, type and resolver', () => {
    fc.assert(
      fc.property(PUBLIC_DOMAIN, fc.constantFrom(...DIG_TYPES), fc.stringMatching(/^[a-z0-9-]{1,32}$/), (name, type, resolver) => {
        const parsed = parseDigQuestion(name, type);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        expect(parseDigRefreshText(digRefreshText(parsed.question, resolver))).toEqual({ question: parsed.question, resolver });
      }),
      { numRuns: RUNS },
    );
    expect(parseDigRefreshText('A system printer.local')).toBeNull();
    expect(parseDigRefreshText('A system')).toBeNull();
  });
});

describe('withoutPrivateAddresses', () => {
  it('hides exactly the special-range A and AAAA records', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.ipV4(), fc.ipV6()), { maxLength: 12 }), (addresses) => {
        const records = addresses.map((data) => ({ name: 'x.example', type: data.includes(':') ? 'AAAA' : 'A', ttl: 60, data }));
        const { records: shown, hidden } = withoutPrivateAddresses(records);
        expect(shown.every((record) => describeSpecialRange(record.data) === null)).toBe(true);
        expect(shown.length + hidden).toBe(records.length);
      }),
      { numRuns: RUNS },
    );
  });
});
