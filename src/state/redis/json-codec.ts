/** How a `Date` travels in JSON (domain objects carry some, e.g. a wallpaper's upload time). */
interface DateMarker {
  $date: number;
}

function isDateMarker(value: unknown): value is DateMarker {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && typeof (value as DateMarker).$date === 'number';
}

/** JSON that gives back `Date`s as `Date`s (a plain JSON round trip turns them into strings). */
export function encodeCached(value: unknown): Buffer {
  return Buffer.from(
    JSON.stringify(value, function (this: Record<string, unknown>, key, encoded: unknown) {
      // `this[key]` is the value before Date#toJSON turned it into a string.
      const original = this[key];
      return original instanceof Date ? ({ $date: original.getTime() } satisfies DateMarker) : encoded;
    }),
  );
}

export function decodeCached<V>(bytes: Buffer): V {
  return JSON.parse(bytes.toString('utf8'), (_key, value: unknown) => (isDateMarker(value) ? new Date(value.$date) : value)) as V;
}
