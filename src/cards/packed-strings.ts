/**
 * A list of strings kept as one array of UTF-16 code units and where each string starts, read in
 * place. A matcher over every card in five languages holds about 300,000 strings; as separate
 * strings, each swap of a matcher built in a worker thread sliced them all back out on the event
 * loop (tens of ms) and the next garbage collection traced and freed the previous matcher's (tens
 * of ms more, 190 ms after English). Packed into long strings, they still cost the event loop
 * 13-38 ms per swap: a message's strings are copied as it is read (about 12 MB of two-byte strings
 * for five languages). As code units in typed arrays they are moved, not copied, and live off the
 * garbage-collected heap. Comparisons read the code units in place, as the string operators would
 * (code-unit order), without slicing.
 */
export interface PackedStrings {
  /** Every present string's UTF-16 code units, one string after the other. */
  codes: Uint16Array;
  /**
   * count + 1 offsets: string i is codes[start(i), start(i + 1)). An absent string is marked by its
   * start stored as ~start (negative); it starts where it would, and is as long as nothing.
   */
  offsets: Int32Array;
}

export function packStrings(list: readonly (string | undefined)[]): PackedStrings {
  const offsets = new Int32Array(list.length + 1);
  let offset = 0;
  for (let at = 0; at < list.length; at++) {
    const text = list[at];
    offsets[at] = text === undefined ? ~offset : offset;
    offset += text?.length ?? 0;
  }
  offsets[list.length] = offset;
  const codes = new Uint16Array(offset);
  const joined = list.join('');
  if (LITTLE_ENDIAN) {
    // Written natively as UTF-16LE code units (a lone surrogate as it is): a third of the time of a
    // loop over the characters, which matters on the event loop when English's 13,700 names arrive.
    Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).write(joined, 'utf16le');
  } else {
    for (let i = 0; i < joined.length; i++) codes[i] = joined.charCodeAt(i);
  }
  return { codes, offsets };
}

/** Whether a Uint16Array stores its elements little-endian, as UTF-16LE is written. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

export function packedCount(list: PackedStrings): number {
  return list.offsets.length - 1;
}

/** Where string `at` starts in `list.codes`. */
export function startOf(list: PackedStrings, at: number): number {
  const offset = list.offsets[at] as number;
  return offset < 0 ? ~offset : offset;
}

/** The length of string `at` (0 for an absent one). */
export function lengthOf(list: PackedStrings, at: number): number {
  return startOf(list, at + 1) - startOf(list, at);
}

/** String `at` as a string of its own (undefined when absent or out of range): for the few strings a result shows. */
export function stringAt(list: PackedStrings, at: number): string | undefined {
  if (!Number.isInteger(at) || at < 0 || at >= packedCount(list) || (list.offsets[at] as number) < 0) return undefined;
  // Code unit by code unit, so that a lone surrogate comes back as it went in (a UTF-16 decoder would replace it).
  return String.fromCharCode.apply(null, list.codes.subarray(startOf(list, at), startOf(list, at + 1)) as unknown as number[]);
}

/** Every string, each as a string of its own (absent ones undefined). */
export function unpackStrings(list: PackedStrings): (string | undefined)[] {
  return Array.from({ length: packedCount(list) }, (_, at) => stringAt(list, at));
}

/** Negative, zero or positive as string `at` sorts before, equal to or after `other` (code-unit order, like `<`). */
export function compareAt(list: PackedStrings, at: number, other: string): number {
  const { codes } = list;
  const start = startOf(list, at);
  const length = startOf(list, at + 1) - start;
  const shorter = Math.min(length, other.length);
  for (let i = 0; i < shorter; i++) {
    const difference = (codes[start + i] as number) - other.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return length - other.length;
}

/** Whether string `at` starts with `prefix` (an absent string starts with nothing but ''). */
export function startsWithAt(list: PackedStrings, at: number, prefix: string): boolean {
  const start = startOf(list, at);
  if (startOf(list, at + 1) - start < prefix.length) return false;
  const { codes } = list;
  for (let i = 0; i < prefix.length; i++) {
    if (codes[start + i] !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * In a list sorted in code-unit order (or visited in that order through `order`, positions to
 * indices), the first position whose string is not less than `text`.
 */
export function lowerBound(list: PackedStrings, text: string, order?: Int32Array): number {
  let low = 0;
  let high = order?.length ?? packedCount(list);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareAt(list, order === undefined ? middle : (order[middle] as number), text) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
