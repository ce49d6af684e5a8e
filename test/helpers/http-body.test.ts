import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeMultipart, type MultipartPart } from '../../src/discord/multipart.js';
import { parseBody } from './http-body.js';

describe('parseBody', () => {
  it('reads back what the bot uploads: the JSON field, files with their names, types and bytes', async () => {
    const art = Buffer.from([0xff, 0xd8, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]); // CR LF "--" inside the bytes
    const { body, contentType } = encodeMultipart([
      { name: 'payload_json', value: '{"content":"Blue-Eyes ✓\\r\\n"}' },
      { name: 'files[0]', filename: 'art.jpg', data: art, contentType: 'image/jpeg' },
      { name: 'files[1]', filename: 'my "deck"\n.ydk', data: Buffer.from('#main\r\n89631139\r\n') },
      { name: 'files[2]', filename: 'empty.txt', data: Buffer.alloc(0) },
      { name: 'files[3]', filename: 'line\u2028separator.txt', data: Buffer.from('x') },
    ]);
    const parsed = await parseBody(body, contentType);
    expect(parsed.fields).toEqual({ payload_json: '{"content":"Blue-Eyes ✓\\r\\n"}' });
    expect(parsed.files.map(({ field, name, contentType: type, data }) => [field, name, type, [...data]])).toEqual([
      ['files[0]', 'art.jpg', 'image/jpeg', [...art]],
      ['files[1]', 'my "deck"\n.ydk', 'application/octet-stream', [...Buffer.from('#main\r\n89631139\r\n')]],
      ['files[2]', 'empty.txt', 'application/octet-stream', []],
      // A JavaScript line terminator inside a header line: the parser is patched to read past it (patches/).
      ['files[3]', 'line\u2028separator.txt', 'application/octet-stream', [...Buffer.from('x')]],
    ]);
  });

  it('reads JSON, and ignores an empty body or another type', async () => {
    expect(await parseBody(Buffer.from('{"type":1}'), 'application/json')).toEqual({ json: { type: 1 }, fields: {}, files: [] });
    expect(await parseBody(Buffer.alloc(0), 'application/json')).toEqual({ fields: {}, files: [] });
    expect(await parseBody(Buffer.from('hello'), 'text/plain')).toEqual({ fields: {}, files: [] });
  });

  it('refuses a multipart body without a boundary', async () => {
    await expect(parseBody(Buffer.from('--x--\r\n'), 'multipart/form-data')).rejects.toThrow(/without a boundary/);
  });

  it('gives back any parts the bot encodes', async () => {
    // `%` is left out of names: `%22` in a name reads back as a quote, as the platform's FormData reads it.
    const name = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).filter((text) => !text.includes('%'));
    const part: fc.Arbitrary<MultipartPart> = fc.oneof(
      fc.record({ name, value: fc.string({ maxLength: 50, unit: 'grapheme' }) }),
      fc.record({ name, filename: name, data: fc.uint8Array({ maxLength: 200 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(part, { maxLength: 5, selector: (each) => each.name }), async (parts) => {
        const { body, contentType } = encodeMultipart(parts);
        const parsed = await parseBody(body, contentType);
        const fields = Object.fromEntries(parts.flatMap((each) => ('value' in each ? [[each.name, each.value]] : [])));
        const files = parts.flatMap((each) => ('data' in each ? [[each.name, each.filename, [...each.data]]] : []));
        expect(parsed.fields).toEqual(fields);
        expect(parsed.files.map((file) => [file.field, file.name, [...file.data]])).toEqual(files);
      }),
    );
  });
});
