/** How a `Date` travels in JSON (domain objects carry some, e.g. a wallpaper's upload time). */
interface DateMarker {
  $date: number;
}

/** How a `Buffer` travels (a card download's compact body): base64, where Buffer#toJSON makes an array of numbers. */
interface BytesMarker {
  $base64: string;
}

function isMarker<M extends object>(value: unknown, key: keyof M, type: 'number' | 'string'): value is M {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && typeof (value as M)[key] === type;
}

/** JSON that gives back `Date`s as `Date`s and `Buffer`s as `Buffer`s (a plain JSON round trip turns them into strings and arrays). */
export function encodeCached(value: unknown): Buffer {
  return Buffer.from(
    JSON.stringify(value, function (this: Record<string, unknown>, key, encoded: unknown) {
      // `this[key]` is the value before Date#toJSON or Buffer#toJSON changed it.
      const original = this[key];
      if (original instanceof Date) return { $date: original.getTime() } satisfies DateMarker;
      if (Buffer.isBuffer(original)) return { $base64: original.toString('base64') } satisfies BytesMarker;
      return encoded;
    }),
  );
}

export function decodeCached<V>(bytes: Buffer): V {
  return JSON.parse(bytes.toString('utf8'), (_key, value: unknown) => {
    if (isMarker<DateMarker>(value, '$date', 'number')) return new Date(value.$date);
    if (isMarker<BytesMarker>(value, '$base64', 'string')) return Buffer.from(value.$base64, 'base64');
    return value;
  }) as V;
}
