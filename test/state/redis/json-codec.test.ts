import { describe, expect, it } from 'vitest';
import type { CardTranslation } from '../../../src/cards/card-translation.js';
import { compactCardinfoBody, recordsOf, type CompactDownload } from '../../../src/services/off-thread/compact-download.js';
import { decodeCached, encodeCached } from '../../../src/state/redis/json-codec.js';
import { translatedDump } from '../../fakes/card-translations.js';
import { loadCardDump } from '../../helpers/card-dump.js';

describe('the shared cache’s JSON codec', () => {
  it('gives back a card download as it was: its body a Buffer, its line starts a Uint32Array, taken without a scan', () => {
    const download = compactCardinfoBody(Buffer.from(JSON.stringify({ data: translatedDump(loadCardDump().slice(0, 200), 'it') })), 'texts');
    const shared = decodeCached<CompactDownload>(encodeCached(download));
    expect(Buffer.isBuffer(shared.body) && shared.body.equals(download.body)).toBe(true);
    expect(shared.starts).toBeInstanceOf(Uint32Array);
    expect(shared.starts).toEqual(download.starts);
    expect({ ...shared, body: null, starts: null }).toEqual({ ...download, body: null, starts: null });
    const records = recordsOf<CardTranslation>(shared);
    expect(records.get(records.length - 1).id).toBe(shared.ids.at(-1));
  });

  it('keeps dates, buffers and each typed array’s type, also over part of a larger buffer', () => {
    const backing = new Float64Array([0.5, -1, Number.MAX_VALUE, 3]);
    const value = { at: new Date(1_700_000_000_000), bytes: Buffer.from('bytes'), part: backing.subarray(1, 3), small: Uint8Array.of(1, 2), list: [Int32Array.of(-7)] };
    const decoded = decodeCached<typeof value>(encodeCached(value));
    expect(decoded).toEqual(value);
    expect([decoded.at, decoded.bytes, decoded.part, decoded.small, decoded.list[0]].map((field) => field!.constructor)).toEqual([Date, Buffer, Float64Array, Uint8Array, Int32Array]);
  });

  it('leaves objects that only look like a typed array as they are', () => {
    for (const lookalike of [{ $typedArray: 'Array', $base64: 'AAAA' }, { $typedArray: 'Uint32Array', $base64: 1 }, { $typedArray: 'Uint32Array', $base64: 'AA', more: 1 }]) {
      expect(decodeCached(encodeCached(lookalike))).toEqual(lookalike);
    }
  });
});
