/**
 * How a value travels through Redis (the shared cache, the fleet's shared downloads): a small JSON
 * header holding the value, in which each `Buffer` and typed array is replaced by a reference to
 * its bytes, then those bytes as they are. A card download (a 15 MB body and its line starts) is
 * written with a few copies and read back as views, where JSON with base64 cost the event loop
 * 0.3-0.5 s to write and 0.1-0.2 s to read.
 *
 *   magic (4 bytes) | header length (uint32 LE) | header (UTF-8 JSON) | padding | sections
 *
 * Each section starts 8-byte aligned (from the start of the value), so a typed array can be read in
 * place; the bytes are in this machine's order: the fleet's processes run on one architecture.
 */

/**
 * The first bytes of every value (0xf5 never starts UTF-8, so no JSON text is mistaken for a value).
 * A new layout gets a new magic and a new `VALUE_FORMAT`.
 */
const MAGIC = Buffer.from([0xf5, 0x41, 0x4c, 0x01]);
/** Named in every key that holds a value of this layout, so a process never reads another layout's entry. */
export const VALUE_FORMAT = 'v1';
const PREAMBLE_BYTES = MAGIC.length + 4;
const ALIGNMENT = 8;

/** The typed arrays that travel, by name: plain JSON would make `{"0": …, "1": …}` of them. */
const TYPED_ARRAYS = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedArrayName = keyof typeof TYPED_ARRAYS;
type TypedArray = InstanceType<(typeof TYPED_ARRAYS)[TypedArrayName]>;

/** How a `Date` travels (domain objects carry some, e.g. a wallpaper's upload time). */
interface DateMarker {
  $date: number;
}

/** Where a `Buffer`'s bytes are: their offset in the sections, and their length. */
interface BytesMarker {
  $bytes: [number, number];
}

/** Where a typed array's bytes are, and its type. */
interface TypedArrayMarker extends BytesMarker {
  $typedArray: TypedArrayName;
}

function typedArrayName(value: object): TypedArrayName | undefined {
  if (!ArrayBuffer.isView(value)) return undefined;
  const name = (Object.keys(TYPED_ARRAYS) as TypedArrayName[]).find((candidate) => value instanceof TYPED_ARRAYS[candidate]);
  // A subclass (Buffer is a Uint8Array) would come back as its parent.
  return name !== undefined && value.constructor === TYPED_ARRAYS[name] ? name : undefined;
}

function aligned(offset: number): number {
  return Math.ceil(offset / ALIGNMENT) * ALIGNMENT;
}

/** The binary fields met so far: each one's bytes, and where they go among the sections. */
interface Sections {
  found: { bytes: Uint8Array; offset: number }[];
  length: number;
}

/**
 * The value as JSON can hold it, each binary field replaced by its marker and its bytes added to
 * `sections`. It walks the value rather than using a `JSON.stringify` replacer, which sees a Buffer
 * only after `Buffer#toJSON` made an array of its every byte.
 */
function withMarkers(value: unknown, key: string, sections: Sections): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return { $date: value.getTime() } satisfies DateMarker;
  const typedArray = typedArrayName(value);
  if (Buffer.isBuffer(value) || typedArray !== undefined) {
    const { buffer, byteOffset, byteLength } = value as ArrayBufferView;
    const offset = aligned(sections.length);
    sections.found.push({ bytes: new Uint8Array(buffer, byteOffset, byteLength), offset });
    sections.length = offset + byteLength;
    const bytes: BytesMarker = { $bytes: [offset, byteLength] };
    return typedArray === undefined ? bytes : ({ $typedArray: typedArray, ...bytes } satisfies TypedArrayMarker);
  }
  let plain: object = value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    // As JSON.stringify does: what toJSON gives is written as it is, its own toJSON not called.
    const json: unknown = toJSON.call(value, key);
    if (typeof json !== 'object' || json === null) return json;
    plain = json;
  }
  if (Array.isArray(plain)) {
    // A list of plain values (a download's 13,700 names) is taken as it is: no copy to make.
    if (plain.every((item) => typeof item !== 'object' || item === null)) return plain;
    return plain.map((item, index) => withMarkers(item, String(index), sections));
  }
  const copy: Record<string, unknown> = {};
  for (const [field, item] of Object.entries(plain)) copy[field] = withMarkers(item, field, sections);
  return copy;
}

/**
 * The value in this layout, in pieces to be written one after another: the header, then each
 * section as a view of the value's own bytes (a card download's 15 MB body is not copied here).
 * `Date`s come back as `Date`s, `Buffer`s as `Buffer`s and typed arrays as the same typed arrays;
 * everything else as a JSON round trip gives it back.
 */
export function encodeCachedParts(value: unknown): Buffer[] {
  const sections: Sections = { found: [], length: 0 };
  const header = JSON.stringify(withMarkers(value, '', sections)) ?? 'null';
  const headerLength = Buffer.byteLength(header);
  const head = Buffer.alloc(aligned(PREAMBLE_BYTES + headerLength));
  MAGIC.copy(head);
  head.writeUInt32LE(headerLength, MAGIC.length);
  head.write(header, PREAMBLE_BYTES);
  const parts: Buffer[] = [head];
  let end = 0;
  for (const { bytes, offset } of sections.found) {
    if (offset > end) parts.push(Buffer.alloc(offset - end));
    parts.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    end = offset + bytes.byteLength;
  }
  return parts;
}

/** The value in this layout, in one Buffer (see `encodeCachedParts`). */
export function encodeCached(value: unknown): Buffer {
  return Buffer.concat(encodeCachedParts(value));
}

/** Thrown for bytes this layout did not write (another layout, or damaged): never a half-read value. */
export class UnreadableValueError extends Error {
  constructor(reason: string) {
    super(`not a shared value: ${reason}`);
    this.name = 'UnreadableValueError';
  }
}

function isDateMarker(value: object): value is DateMarker {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$date' && typeof (value as DateMarker).$date === 'number';
}

function isBytesMarker(value: object): value is BytesMarker | TypedArrayMarker {
  const keys = Object.keys(value);
  const $bytes = (value as Partial<BytesMarker>).$bytes;
  if (!Array.isArray($bytes) || $bytes.length !== 2 || !$bytes.every((part) => Number.isSafeInteger(part) && part >= 0)) return false;
  if (keys.length === 1) return true;
  const $typedArray = (value as Partial<TypedArrayMarker>).$typedArray;
  return keys.length === 2 && typeof $typedArray === 'string' && Object.hasOwn(TYPED_ARRAYS, $typedArray);
}

/**
 * The value `encodeCached` wrote. `Buffer`s are views of `bytes` (no copy: they keep it alive), typed
 * arrays too where `bytes` leaves them aligned, else copies. Throws an `UnreadableValueError` for anything else.
 */
export function decodeCached<V>(bytes: Buffer): V {
  if (bytes.length < PREAMBLE_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new UnreadableValueError('no magic');
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  if (PREAMBLE_BYTES + headerLength > bytes.length) throw new UnreadableValueError('header cut short');
  const start = aligned(PREAMBLE_BYTES + headerLength);
  const section = ([offset, length]: [number, number]): Buffer => {
    if (start + offset + length > bytes.length) throw new UnreadableValueError('section cut short');
    return bytes.subarray(start + offset, start + offset + length);
  };
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', PREAMBLE_BYTES, PREAMBLE_BYTES + headerLength));
  } catch {
    throw new UnreadableValueError('header is not JSON');
  }
  return revive(header) as V;

  // In place, and only into objects: a download's 27,000 ids and names are looked at, not revived one by one.
  function revive(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (typeof item === 'object' && item !== null) value[index] = revive(item);
      }
      return value;
    }
    if (isDateMarker(value)) return new Date(value.$date);
    if (isBytesMarker(value)) {
      const part = section(value.$bytes);
      return '$typedArray' in value ? typedArrayOf(value.$typedArray, part) : part;
    }
    const record = value as Record<string, unknown>;
    for (const field of Object.keys(record)) record[field] = revive(record[field]);
    return record;
  }
}

function typedArrayOf(name: TypedArrayName, part: Buffer): TypedArray {
  const type = TYPED_ARRAYS[name];
  if (part.byteLength % type.BYTES_PER_ELEMENT !== 0) throw new UnreadableValueError(`${part.byteLength} bytes are no ${name}`);
  if (part.byteOffset % type.BYTES_PER_ELEMENT === 0) return new type(part.buffer as ArrayBuffer, part.byteOffset, part.byteLength / type.BYTES_PER_ELEMENT);
  const copy = new type(part.byteLength / type.BYTES_PER_ELEMENT);
  new Uint8Array(copy.buffer).set(part);
  return copy;
}
