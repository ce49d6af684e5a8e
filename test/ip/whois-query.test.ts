import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSpecialRange } from '../../src/ip/special-ranges.js';
import { ownerButtonId, parseOwnerButtonId, parseWhoisQuery } from '../../src/ip/whois-query.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { PUBLIC_DOMAIN } from '../helpers/ip-fixtures.js';

const RUNS = fuzzRuns(1_000);

describe('parseWhoisQuery', () => {
  it('reads AS numbers as operators write them, within 32 bits', () => {
    expect(parseWhoisQuery('AS13335')).toEqual({ ok: true, query: { kind: 'autnum', number: 13335 } });
    expect(parseWhoisQuery(' asn 3333 ')).toEqual({ ok: true, query: { kind: 'autnum', number: 3333 } });
    expect(parseWhoisQuery('AS4294967295')).toEqual({ ok: true, query: { kind: 'autnum', number: 4294967295 } });
    expect(parseWhoisQuery('AS4294967296')).toEqual({ ok: false, problem: 'asnTooLarge' });
  });

  it('reads addresses canonically and refuses special ones before any registry', () => {
    expect(parseWhoisQuery('2001:4860:4860:0:0:0:0:8888')).toEqual({ ok: true, query: { kind: 'ip', address: '2001:4860:4860::8888' } });
    expect(parseWhoisQuery('http://[::ffff:8.8.8.8]:80/')).toEqual({ ok: true, query: { kind: 'ip', address: '8.8.8.8' } });
    expect(parseWhoisQuery('10.1.2.3')).toEqual({ ok: false, problem: 'specialAddress' });
    expect(parseWhoisQuery('8.8.8.0/24')).toEqual({ ok: false, problem: 'cidr' });
  });

  it('reads domains as /ip reads host names, and refuses local ones', () => {
    expect(parseWhoisQuery('https://Bücher.Example/x')).toEqual({ ok: true, query: { kind: 'domain', name: 'xn--bcher-kva.example', display: 'bücher.example' } });
    expect(parseWhoisQuery('printer.local')).toEqual({ ok: false, problem: 'privateName' });
    expect(parseWhoisQuery('')).toEqual({ ok: false, problem: 'notAddress' });
  });

  it('never lets a special address, a malformed AS number or an unsafe character through', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (input) => {
        const parsed = parseWhoisQuery(input);
        if (!parsed.ok) return;
        const { query } = parsed;
        if (query.kind === 'ip') expect(describeSpecialRange(query.address)).toBeNull();
        if (query.kind === 'autnum') expect(Number.isSafeInteger(query.number) && query.number <= 4294967295).toBe(true);
        // What goes into an RDAP path: nothing that could leave its segment.
        const value = query.kind === 'ip' ? query.address : query.kind === 'domain' ? query.name : String(query.number);
        expect(value).toMatch(/^[a-z0-9._:-]+$/);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads any public domain, in any case, as itself', () => {
    fc.assert(
      fc.property(PUBLIC_DOMAIN, fc.boolean(), (name, upper) => {
        const parsed = parseWhoisQuery(upper ? name.toUpperCase() : name);
        expect(parsed).toMatchObject({ ok: true, query: { kind: 'domain', name: name.toLowerCase() } });
      }),
      { numRuns: RUNS },
    );
  });

  it('reads back the address of every registration button, and nothing from a forged one', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (address) => {
        const parsed = parseWhoisQuery(address);
        fc.pre(parsed.ok && parsed.query.kind === 'ip');
        const query = parsed.ok ? parsed.query : null;
        const id = ownerButtonId((query as { address: string }).address);
        expect(id.length).toBeLessThanOrEqual(100);
        expect(parseOwnerButtonId(id)).toEqual(parsed);
      }),
      { numRuns: RUNS },
    );
    expect(parseOwnerButtonId('ip:owner:10.0.0.1')).toEqual({ ok: false, problem: 'specialAddress' });
    expect(parseOwnerButtonId('ip:owner:../../x')).toMatchObject({ ok: false });
    expect(parseOwnerButtonId('wall:1')).toBeNull();
  });
});
