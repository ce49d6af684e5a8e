import { describe, expect, it } from 'vitest';
import { wellFormed } from '../../src/interaction/well-formed.js';

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
});
