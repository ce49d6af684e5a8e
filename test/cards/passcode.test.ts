import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePasscode } from '../../src/cards/passcode.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

describe('parsePasscode', () => {
  it('reads passcodes as typed, leading zeros included', () => {
    expect(parsePasscode('46986414')).toBe(46_986_414);
    expect(parsePasscode('00046986414')).toBe(46_986_414);
    expect(parsePasscode('9999999999')).toBe(9_999_999_999);
  });

  it('refuses what is no passcode: zero, too large, signs, spaces, decimals, exponents', () => {
    for (const text of ['0', '000', '10000000000', '-5', '+5', ' 5', '5 ', '5.0', '1e5', '0x1F', '', '４６']) expect(parsePasscode(text), text).toBeUndefined();
  });

  it('never throws, and anything it reads is a whole number from 1 to 9,999,999,999 written in the text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{0,13}$/)), (text) => {
        const value = parsePasscode(text);
        if (value === undefined) return;
        expect(Number.isInteger(value) && value >= 1 && value <= 9_999_999_999).toBe(true);
        expect(BigInt(text)).toBe(BigInt(value));
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });
});
