import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHostName } from '../../src/ip/host-name.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { PUBLIC_DOMAIN } from '../helpers/ip-fixtures.js';

const RUNS = fuzzRuns(1_000);


describe('parseHostName', () => {
  it('sends lowercase punycode without the trailing dot, and shows Unicode', () => {
    expect(parseHostName('Bücher.Example.')).toEqual({ ok: true, name: 'xn--bcher-kva.example', display: 'bücher.example' });
    expect(parseHostName('xn--bcher-kva.example')).toEqual({ ok: true, name: 'xn--bcher-kva.example', display: 'bücher.example' });
    expect(parseHostName('_dmarc.example.com')).toMatchObject({ ok: true, name: '_dmarc.example.com' });
  });

  it.each([
    ['localhost', 'privateName'],
    ['api.localhost', 'privateName'],
    ['nas', 'privateName'],
    ['printer.local.', 'privateName'],
    ['db.internal', 'privateName'],
    ['router.home.arpa', 'privateName'],
    ['a..b.com', 'badCharacters'],
    ['a b.com', 'badCharacters'],
    ['a/b.com', 'badCharacters'],
    ['a@b.com', 'badCharacters'],
    ['-a.com', 'badCharacters'],
    ['xn--zz.com', 'badCharacters'],
    [`${'a'.repeat(64)}.com`, 'labelTooLong'],
    [`${'a'.repeat(60)}.`.repeat(5) + 'com', 'nameTooLong'],
    ['1.2.3', 'notAddress'],
    ['0x7f.1', 'notAddress'],
    ['example.com%00', 'percentOrZone'],
  ])('refuses %s (%s)', (input, problem) => {
    expect(parseHostName(input)).toEqual({ ok: false, problem });
  });

  it('accepts any public domain, whatever its case or trailing dot, as the same DNS-safe name', () => {
    fc.assert(
      fc.property(PUBLIC_DOMAIN, fc.boolean(), (domain, trailingDot) => {
        const parsed = parseHostName(`${domain.toUpperCase()}${trailingDot ? '.' : ''}`);
        expect(parsed).toMatchObject({ ok: true, name: domain.toLowerCase() });
        if (parsed.ok) expect(parseHostName(parsed.name)).toEqual(parsed);
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws, and whatever it accepts fits DNS: LDH labels of 1–63, at most 253 in all', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 80 }), PUBLIC_DOMAIN), (input) => {
        const parsed = parseHostName(input);
        if (!parsed.ok) return;
        expect(parsed.name.length).toBeLessThanOrEqual(253);
        for (const label of parsed.name.split('.')) expect(label).toMatch(/^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/);
        expect(parsed.name.split('.').length).toBeGreaterThan(1);
      }),
      { numRuns: RUNS },
    );
  });
});
