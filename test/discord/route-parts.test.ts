import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInteractionToken, isSnowflake, routeId, routeToken } from '../../src/discord/route-parts.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** Characters a hostile token leans on: separators, escapes, dots, and some that are merely odd. */
const pathy = fc.constantFrom('/', '\\', '?', '#', '%', '.', '..', '%2e', '%2F', '@', ':', ' ', '\t', '\u0000', 'é', '\uD800', 'a', '0');
const hostileToken = fc.oneof(fc.string(), fc.array(pathy, { maxLength: 8 }).map((parts) => parts.join('')), fc.constantFrom('.', '..', ''));
/** Tokens as Discord writes them: base64url, dots, colons. */
const discordToken = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,300}$/).filter((token) => token !== '.' && token !== '..');

describe('Discord route parts', () => {
  it('takes an id of 17 to 20 digits and nothing else', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 10n ** 16n, max: 2n ** 64n - 1n }), (id) => {
        expect(isSnowflake(String(id))).toBe(true);
        expect(routeId(String(id))).toBe(String(id));
      }),
      { numRuns: fuzzRuns(500) },
    );
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (digits, other) => {
        const forged = `${digits}${other}`;
        fc.pre(!/^\d{17,20}$/.test(forged));
        expect(isSnowflake(forged)).toBe(false);
        expect(() => routeId(forged)).toThrow(TypeError);
      }),
      { numRuns: fuzzRuns(1_000) },
    );
    for (const id of ['1'.repeat(16), '1'.repeat(21), ` ${'1'.repeat(18)}`, `${'1'.repeat(18)}\n`, '１'.repeat(18)]) expect(isSnowflake(id), id).toBe(false);
  });

  it('takes every token Discord writes, as it is', () => {
    fc.assert(
      fc.property(discordToken, (token) => {
        expect(isInteractionToken(token)).toBe(true);
        expect(decodeURIComponent(routeToken(token))).toBe(token);
      }),
      { numRuns: fuzzRuns(500) },
    );
  });

  it('puts any token it takes in one path segment, and refuses one holding / \\ ? # %, a dot segment or anything unprintable', () => {
    fc.assert(
      fc.property(hostileToken, (token) => {
        const taken = isInteractionToken(token);
        expect(taken).toBe(/^[!-~]+$/.test(token) && !/[/\\?#%]/.test(token) && token !== '.' && token !== '..');
        if (!taken) {
          // The error never carries the token: it may end in a log line.
          expect(() => routeToken(token)).toThrow(/^refused in a Discord route: not an interaction token$/);
          return;
        }
        const url = new URL(`https://discord.com/api/v10/webhooks/1356000000000000001/${routeToken(token)}/messages/@original`);
        const segments = url.pathname.split('/');
        expect(segments).toHaveLength(8);
        expect(segments.slice(0, 5)).toEqual(['', 'api', 'v10', 'webhooks', '1356000000000000001']);
        expect(decodeURIComponent(segments[5]!)).toBe(token);
        expect(url.search + url.hash).toBe('');
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });
});
