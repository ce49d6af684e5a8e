import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectionsPath } from '../../src/wallpaper/wallhaven-query.js';
import { collectionListingText, parseCollectionListingText, parseWallhavenUsername } from '../../src/wallpaper/collections.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** Typed names, leaning on what a name is read with: leading `@`s and spaces, separators, dots. */
const typed = fc
  .tuple(
    fc.constantFrom('', '@', '@@', ' @', '@ ', '@@@'),
    fc.oneof(
      fc.string({ maxLength: 70 }),
      fc.array(fc.constantFrom('@', ' ', '.', '/', '%', ':', '\t', 'a', 'Z', '_', '-', '0', 'é'), { maxLength: 8 }).map((parts) => parts.join('')),
    ),
  )
  .map(([prefix, name]) => `${prefix}${name}`);

describe('parseWallhavenUsername', () => {
  it('takes a name the way it is read again everywhere after: as the same name, one path segment', () => {
    fc.assert(
      fc.property(typed, (input) => {
        const parsed = parseWallhavenUsername(input);
        if (!parsed.ok) return;
        expect(parseWallhavenUsername(parsed.username)).toEqual(parsed);
        expect(collectionsPath(parsed.username)).toBe(`/api/v1/collections/${encodeURIComponent(parsed.username)}`);
        expect(parseCollectionListingText(collectionListingText({ id: 7, username: parsed.username }))).toEqual({ id: 7, username: parsed.username });
      }),
      { numRuns: fuzzRuns(4_000) },
    );
  });

  it('takes one leading @, and refuses a name still starting with one', () => {
    expect(parseWallhavenUsername(' @alpha ')).toEqual({ ok: true, username: 'alpha' });
    for (const input of ['@@x', '@@', '@ @x', '@']) expect(parseWallhavenUsername(input), input).toEqual({ ok: false });
  });
});
