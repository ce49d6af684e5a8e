import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD } from '../../src/decks/deck-list.js';
import { parseYdk, parseYdkBytes, toYdk } from '../../src/decks/ydk.js';
import { parseYdke, toYdke } from '../../src/decks/ydke.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { anyCodePoints } from '../helpers/hostile-input.js';

describe('parseYdk', () => {
  it('tolerates comments, blank lines, CRLF, a BOM and trailing spaces', () => {
    const text = '\uFEFF#created by Player  \r\n#main\r\n14558127  \r\n\r\n14558127\r\n#a comment\r\n#extra\r\n1861629\t\r\n!side\r\n94145021\r\n';
    expect(parseYdk(text)).toEqual({ ok: true, deck: { main: [14558127, 14558127], extra: [1861629], side: [94145021] } });
    expect(parseYdkBytes(Buffer.from(text))).toEqual(parseYdk(text));
  });

  it('refuses a renamed binary, a text that is not a deck, an empty deck and a pile over 200 cards', () => {
    expect(parseYdkBytes(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toEqual({ ok: false, problem: 'binaryFile' });
    expect(parseYdkBytes(Buffer.from('#main\n1\n\u0000\u0001'))).toEqual({ ok: false, problem: 'binaryFile' });
    expect(parseYdk('Dear diary,\ntoday I built a deck.')).toEqual({ ok: false, problem: 'notYdk' });
    expect(parseYdk('#main\n99999999999\n')).toEqual({ ok: false, problem: 'notYdk' });
    expect(parseYdk('#created by someone\n#main\n#extra\n!side\n')).toEqual({ ok: false, problem: 'emptyDeck' });
    expect(parseYdk(`#main\n${'14558127\n'.repeat(201)}`)).toEqual({ ok: false, problem: 'tooManyCards' });
  });

  it('keeps order and counts through .ydk → ydke → .ydk', () => {
    const password = fc.integer({ min: 0, max: MAX_PASSWORD });
    const deck = fc
      .record({ main: fc.array(password, { maxLength: 60 }), extra: fc.array(password, { maxLength: 15 }), side: fc.array(password, { maxLength: 15 }) })
      .filter((value) => value.main.length + value.extra.length + value.side.length > 0);
    fc.assert(
      fc.property(deck, fc.constantFrom('\n', '\r\n'), (original, newline) => {
        const ydk = toYdk(original).replaceAll('\n', newline);
        const read = parseYdk(ydk);
        if (!read.ok) throw new Error(read.problem);
        const viaYdke = parseYdke(toYdke(read.deck));
        expect(viaYdke).toEqual({ ok: true, deck: original });
        if (viaYdke.ok) expect(toYdk(viaYdke.deck)).toBe(toYdk(original));
      }),
      { numRuns: fuzzRuns(400) },
    );
  });

  it('never throws on arbitrary strings or bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), anyCodePoints(), fc.string({ unit: fc.constantFrom('#', '!', 'm', '1', '\n', '\r', ' ', '\uFEFF') })), (text) => {
        return typeof parseYdk(text).ok === 'boolean';
      }),
      { numRuns: fuzzRuns(800) },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        return typeof parseYdkBytes(bytes).ok === 'boolean';
      }),
      { numRuns: fuzzRuns(800) },
    );
  });
});
