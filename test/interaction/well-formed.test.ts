import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wellFormed } from '../../src/interaction/well-formed.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

describe('wellFormed: typed text made safe to echo and send on', () => {
  it('replaces NUL and the other C0 controls but tab and line feed, DEL and the C1 controls with U+FFFD', () => {
    expect(wellFormed('Dark\u0000Magician')).toBe('Dark\uFFFDMagician');
    expect(wellFormed('\u001b[31mred\r\u007f\u0085\u009b')).toBe('\uFFFD[31mred\uFFFD\uFFFD\uFFFD\uFFFD');
    expect(wellFormed('one\ttwo\nthree')).toBe('one\ttwo\nthree');
  });

  it('removes every bidi embedding, override and isolate, and keeps the directional marks', () => {
    const controls = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const control of controls) expect(wellFormed(`Dark${control}Magician`), control.codePointAt(0)!.toString(16)).toBe('DarkMagician');
    expect(wellFormed('\u200fשלום\u200e 8.8.8.8\u061c')).toBe('\u200fשלום\u200e 8.8.8.8\u061c');
  });

  it('still replaces lone surrogates and keeps pairs, emoji sequences and other text as it is', () => {
    expect(wellFormed('a\uD83Cb\uDE00')).toBe('a\uFFFDb\uFFFD');
    const text = 'Blue-Eyes 🐉 👨‍👩‍👧‍👦 e\u0301 \u200b\ufeff Magicien Sombre';
    expect(wellFormed(text)).toBe(text);
  });

  it('gives any text, lone surrogates and controls included, what the three replacements alone give (its quick check skips nothing)', () => {
    const replaced = (text: string) =>
      text
        // eslint-disable-next-line no-control-regex -- the controls are what is replaced
        .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '\uFFFD')
        .replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
        .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
    // Mostly ordinary text, some of every kind of character the replacements touch.
    const unit = fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u001b', '\u007f', '\u0085', '\u202e', '\u2069', '\uD83C', '\uDE00', '\t', '\n') },
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        expect(wellFormed(text)).toBe(replaced(text));
      }),
      { numRuns: fuzzRuns(4_000) },
    );
  });
});
