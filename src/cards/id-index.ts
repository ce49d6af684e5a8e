/**
 * Cards by a number (passcode, Konami id) as two sorted typed arrays, searched by bisection. Built
 * with the rest of a matcher's tables (off the event loop) instead of a Map of 13,700 entries built
 * on it at every swap, and nothing for the garbage collector to trace afterwards.
 */
export interface IdIndex {
  /** The ids in ascending order; a card listed under an id more than once keeps card order. */
  ids: Float64Array;
  cards: Int32Array;
}

/** The index of `idOf(card)` for every card that has one. */
export function idIndex(count: number, idOf: (card: number) => number | undefined): IdIndex {
  const pairs: [number, number][] = [];
  for (let card = 0; card < count; card++) {
    const id = idOf(card);
    if (id !== undefined && !Number.isNaN(id)) pairs.push([id, card]);
  }
  pairs.sort((left, right) => left[0] - right[0] || left[1] - right[1]);
  return { ids: Float64Array.from(pairs, ([id]) => id), cards: Int32Array.from(pairs, ([, card]) => card) };
}

/** Calls `visit` for each card listed under `id`, in card order. */
export function forEachCardWithId(index: IdIndex, id: number, visit: (card: number) => void): void {
  const { ids, cards } = index;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as number) < id) low = middle + 1;
    else high = middle;
  }
  for (let at = low; at < ids.length && ids[at] === id; at++) visit(cards[at] as number);
}

/** The first card listed under `id`, or undefined. */
export function firstCardWithId(index: IdIndex, id: number): number | undefined {
  let first: number | undefined;
  forEachCardWithId(index, id, (card) => (first ??= card));
  return first;
}
