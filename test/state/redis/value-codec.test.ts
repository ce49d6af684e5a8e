import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CardTranslation } from '../../../src/cards/card-translation.js';
import { compactCardinfoBody, recordsOf, type CompactDownload } from '../../../src/services/off-thread/compact-download.js';
import { decodeCached, encodeCached, encodeCachedParts, UnreadableValueError } from '../../../src/state/redis/value-codec.js';
import { translatedDump } from '../../fakes/card-translations.js';
import { loadCardDump } from '../../helpers/card-dump.js';
import { fuzzRuns } from '../../helpers/fuzz-runs.js';

function download(): CompactDownload {
  return compactCardinfoBody(Buffer.from(JSON.stringify({ data: translatedDump(loadCardDump().slice(0, 200), 'it') })), 'texts');
}

/** `bytes` placed `shift` bytes into a larger buffer, as a Redis reply or a tag byte may leave them. */
function shifted(bytes: Buffer, shift: number): Buffer {
  const backing = Buffer.alloc(bytes.length + shift);
  bytes.copy(backing, shift);
  return backing.subarray(shift);
}

describe('the shared value codec', () => {
  it('gives back a card download as it was: its body a Buffer, its line starts a Uint32Array, the body not copied', () => {
    const original = download();
    const encoded = encodeCached(original);
    const shared = decodeCached<CompactDownload>(encoded);
    expect(Buffer.isBuffer(shared.body) && shared.body.equals(original.body)).toBe(true);
    expect(shared.body.buffer).toBe(encoded.buffer);
    expect(shared.starts).toBeInstanceOf(Uint32Array);
    expect(shared.starts).toEqual(original.starts);
    expect({ ...shared, body: null, starts: null }).toEqual({ ...original, body: null, starts: null });
    const records = recordsOf<CardTranslation>(shared);
    expect(records.get(records.length - 1).id).toBe(shared.ids.at(-1));
    // Its pieces are the download's own bytes, written one after another.
    expect(encodeCachedParts(original).some((part) => part.buffer === original.body.buffer)).toBe(true);
    expect(Buffer.concat(encodeCachedParts(original)).equals(encoded)).toBe(true);
  });

  it('keeps dates, buffers and each typed array’s type, also over part of a larger buffer and read from an odd offset', () => {
    const backing = new Float64Array([0.5, -1, Number.MAX_VALUE, 3]);
    const value = { at: new Date(1_700_000_000_000), bytes: Buffer.from('bytes'), part: backing.subarray(1, 3), small: Uint8Array.of(1, 2), list: [Int32Array.of(-7), null, 'x'], empty: Buffer.alloc(0) };
    for (const shift of [0, 1, 3]) {
      const decoded = decodeCached<typeof value>(shifted(encodeCached(value), shift));
      expect(decoded).toEqual(value);
      expect([decoded.at, decoded.bytes, decoded.part, decoded.small, decoded.list[0], decoded.empty].map((field) => field!.constructor)).toEqual([Date, Buffer, Float64Array, Uint8Array, Int32Array, Buffer]);
    }
    expect(['text', 12, null, [1, 'two']].map((plain) => decodeCached(encodeCached(plain)))).toEqual(['text', 12, null, [1, 'two']]);
  });

  it('leaves objects that only look like a marker as they are', () => {
    for (const lookalike of [{ $typedArray: 'Array', $bytes: [0, 0] }, { $bytes: [0, -1] }, { $bytes: [0, 0], more: 1 }, { $date: 'today' }, { $base64: 'AAAA' }]) {
      expect(decodeCached(encodeCached(lookalike))).toEqual(lookalike);
    }
  });

  it('refuses what it did not write: the old JSON layout, a gzip, a cut or damaged value', () => {
    const encoded = encodeCached({ body: Buffer.from('records'), starts: Uint32Array.of(0, 7) });
    const headerEnd = encoded.indexOf('}}') + 2;
    const refused = [
      Buffer.from(JSON.stringify({ body: { $base64: 'cmVjb3Jkcw==' } })),
      gzipSync(encoded),
      Buffer.alloc(0),
      encoded.subarray(0, 6),
      encoded.subarray(0, headerEnd - 1),
      encoded.subarray(0, encoded.length - 1),
      Buffer.concat([encoded.subarray(0, headerEnd - 2), Buffer.from('!'), encoded.subarray(headerEnd - 1)]),
      // A section said to reach past the value's end.
      encodeCached({ starts: { $typedArray: 'Uint32Array', $bytes: [0, 64] } }),
    ];
    for (const bytes of refused) expect(() => decodeCached(bytes)).toThrow(UnreadableValueError);
    // A typed array whose bytes are no whole number of its elements.
    const odd = encodeCached({ bytes: Buffer.from('abc') });
    const renamed = Buffer.from(odd.toString('latin1').replace('{"$bytes"', '{"$typedArray":"Uint16Array","$bytes"'), 'latin1');
    renamed.writeUInt32LE(renamed.indexOf('}}') + 2 - 8, 4);
    expect(() => decodeCached(renamed)).toThrow(/3 bytes are no Uint16Array/);
  });

  it('gives back the value or refuses it, never anything else, whatever bytes of it are damaged', () => {
    const encoded = encodeCached({ at: new Date(0), names: ['a', 'b'], starts: Uint32Array.of(1, 2, 3), body: Buffer.from('body') });
    fc.assert(
      fc.property(fc.nat(encoded.length - 1), fc.integer({ min: 0, max: 255 }), fc.nat(encoded.length), (at, byte, cut) => {
        const damaged = Buffer.from(encoded.subarray(0, cut));
        if (at < damaged.length) damaged[at] = byte;
        try {
          decodeCached(damaged);
        } catch (error) {
          expect(error).toBeInstanceOf(UnreadableValueError);
        }
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });
});
