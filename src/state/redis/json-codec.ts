/** How a `Date` travels in JSON (domain objects carry some, e.g. a wallpaper's upload time). */
interface DateMarker {
  $date: number;
}

/** How a `Buffer` travels (a card download's compact body): base64, where Buffer#toJSON makes an array of numbers. */
interface BytesMarker {
  $base64: string;
}

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

/**
 * How any other typed array travels (a card download's line starts): its bytes as base64, and its
 * type. The bytes are in this machine's order: the fleet's processes run on one architecture.
 */
interface TypedArrayMarker {
  $typedArray: TypedArrayName;
  $base64: string;
}

function isMarker<M extends object>(value: unknown, key: keyof M, type: 'number' | 'string'): value is M {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && typeof (value as M)[key] === type;
}

function isTypedArrayMarker(value: unknown): value is TypedArrayMarker {
  if (typeof value !== 'object' || value === null || Object.keys(value).length !== 2) return false;
  const { $typedArray, $base64 } = value as Partial<TypedArrayMarker>;
  return typeof $base64 === 'string' && typeof $typedArray === 'string' && Object.hasOwn(TYPED_ARRAYS, $typedArray);
}

function typedArrayName(value: unknown): TypedArrayName | undefined {
  if (!ArrayBuffer.isView(value)) return undefined;
  const name = (Object.keys(TYPED_ARRAYS) as TypedArrayName[]).find((candidate) => value instanceof TYPED_ARRAYS[candidate]);
  // A subclass (Buffer is a Uint8Array) would come back as its parent.
  return name !== undefined && (value as TypedArray).constructor === TYPED_ARRAYS[name] ? name : undefined;
}

/** The typed array `marker` holds, over a buffer of its own (aligned, whatever base64 decoding gave). */
function typedArrayOf({ $typedArray, $base64 }: TypedArrayMarker): TypedArray {
  const bytes = Buffer.from($base64, 'base64');
  const type = TYPED_ARRAYS[$typedArray];
  if (bytes.byteLength % type.BYTES_PER_ELEMENT !== 0) throw new Error(`${bytes.byteLength} bytes are no ${$typedArray}`);
  const array = new type(bytes.byteLength / type.BYTES_PER_ELEMENT);
  new Uint8Array(array.buffer).set(bytes);
  return array;
}

/**
 * JSON that gives back `Date`s as `Date`s, `Buffer`s as `Buffer`s and typed arrays as the same
 * typed arrays (a plain JSON round trip turns them into strings, arrays and objects).
 */
export function encodeCached(value: unknown): Buffer {
  return Buffer.from(
    JSON.stringify(value, function (this: Record<string, unknown>, key, encoded: unknown) {
      // `this[key]` is the value before Date#toJSON or Buffer#toJSON changed it.
      const original = this[key];
      if (original instanceof Date) return { $date: original.getTime() } satisfies DateMarker;
      if (Buffer.isBuffer(original)) return { $base64: original.toString('base64') } satisfies BytesMarker;
      const typedArray = typedArrayName(original);
      if (typedArray !== undefined) {
        const { buffer, byteOffset, byteLength } = original as TypedArray;
        return { $typedArray: typedArray, $base64: Buffer.from(buffer, byteOffset, byteLength).toString('base64') } satisfies TypedArrayMarker;
      }
      return encoded;
    }),
  );
}

export function decodeCached<V>(bytes: Buffer): V {
  return JSON.parse(bytes.toString('utf8'), (_key, value: unknown) => {
    if (isMarker<DateMarker>(value, '$date', 'number')) return new Date(value.$date);
    if (isMarker<BytesMarker>(value, '$base64', 'string')) return Buffer.from(value.$base64, 'base64');
    if (isTypedArrayMarker(value)) return typedArrayOf(value);
    return value;
  }) as V;
}
