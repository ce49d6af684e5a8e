import { describe, expect, it } from 'vitest';
import { formatInteger } from '../../src/render/format.js';

describe('formatInteger', () => {
  it('groups digits the way each locale writes them, whichever locale came first', () => {
    // One formatter is kept per locale: a French number after an English one must not come out English.
    expect([formatInteger(13703), formatInteger(13703, 'fr'), formatInteger(13703, 'de'), formatInteger(1234567, 'en-US'), formatInteger(13703, 'fr')]).toEqual([
      '13,703',
      '13\u202f703',
      '13.703',
      '1,234,567',
      '13\u202f703',
    ]);
  });
});
