import { describe, expect, it } from 'vitest';
import type { Card, LocalizedCard } from '../../src/cards/card.js';
import { UserError } from '../../src/interaction/errors.js';
import { UI_LOCALES } from '../../src/i18n/catalogue.js';
import { CATALOGUES } from '../../src/i18n/messages.js';
import { renderCard } from '../../src/render/card.js';
import { renderDidYouMean, renderSearchResults } from '../../src/render/card-menus.js';
import { describeFailure } from '../../src/render/errors.js';
import { renderLookup, renderRejectedEntries, renderTimeLine } from '../../src/render/ip.js';
import type { EntryProblem } from '../../src/ip/host-name.js';
import type { EntryNote, LookupResult } from '../../src/ip/resolution.js';
import { UpstreamError, type UpstreamErrorKind } from '../../src/interaction/upstream-error.js';
import { normalisedDumpCards } from '../helpers/card-dump.js';
import { LONGEST_NAME, longestLookupResult } from '../helpers/ip-fixtures.js';
import { payloadProblems } from '../helpers/payload-checks.js';

const cards = await normalisedDumpCards();
const IMAGE = { format: 'jpg' as const, data: Buffer.from('art') };
const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b/;
const NOW = new Date('2026-07-01T19:32:00Z');

/** The cards that stretch a rendering most: the longest texts, names and type lines, every frame, and every stat kind. */
function demandingCards(): Card[] {
  const longestFirst = (measure: (card: Card) => number) => [...cards].sort((left, right) => measure(right) - measure(left)).slice(0, 40);
  const byFrame = new Map(cards.map((card) => [card.frameType, card]));
  return [
    ...longestFirst((card) => card.description.text.length + (card.description.pendulumEffect?.length ?? 0)),
    ...longestFirst((card) => card.name.length + card.typeLine.length + (card.archetype?.length ?? 0)),
    ...longestFirst((card) => card.sets.length),
    ...byFrame.values(),
  ];
}

/** The longest addresses, every other one unknown and in a long special range. */
function longestAddress(index: number): LookupResult {
  const longest = longestLookupResult(index);
  return index % 2 === 0 ? longest : { ...longest, specialRange: 'W'.repeat(200), record: { ...longest.record, known: false } };
}

function expectAccepted(what: string, payload: Parameters<typeof payloadProblems>[0]): void {
  const problems = payloadProblems(payload);
  const text = JSON.stringify({ ...payload, files: undefined });
  if (BROKEN_VALUE.test(text)) problems.push(`renders ${BROKEN_VALUE.exec(text)![0]}`);
  expect(problems, what).toEqual([]);
}

describe.each(UI_LOCALES)('every rendered string in %s stays within Discord limits', (locale) => {
  const messages = CATALOGUES[locale];
  const demanding = demandingCards();

  it('card embeds, their buttons and notes', () => {
    for (const card of demanding) {
      const translated: LocalizedCard = { ...card, name: `${card.name} ${'é'.repeat(40)}`, language: 'pt', englishName: card.name };
      expectAccepted(`${card.id}`, renderCard({ card, image: IMAGE, messages }));
      expectAccepted(`${card.id} translated`, renderCard({ card: translated, image: IMAGE, messages }));
      expectAccepted(`${card.id} without art`, renderCard({ card, messages, artNotAttachable: true, translationUnavailable: 'de' }));
      const everyFact: Card = { ...card, formats: ['TCG', 'OCG', 'GOAT', 'Master Duel', 'Speed Duel', 'Duel Links', 'Common Charity'], mdRarity: 'Ultra Rare', banlist: { tcg: 'Semi-Limited', ocg: 'Forbidden', goat: 'Limited', masterduel: 'Semi-Limited' }, konamiId: 19_999 };
      expectAccepted(`${card.id} with every fact`, renderCard({ card: everyFact, image: IMAGE, messages }));
    }
  });

  it('search lists and "Did you mean" menus of the longest names', () => {
    const longestNames = [...cards].sort((left, right) => right.name.length + right.typeLine.length - (left.name.length + left.typeLine.length)).slice(0, 25);
    const query = 'Q'.repeat(100);
    // Names in the user's language beside the English ones make the longest labels.
    const localNames = new Map(longestNames.map((card) => [card.id, 'É'.repeat(100)]));
    expectAccepted('search', renderSearchResults({ query, filters: [messages.card.archetypeFilter('A'.repeat(100)), 'TÉNÈBRES'], cards: longestNames, total: 13_703, localNames, messages }));
    expectAccepted('did you mean', renderDidYouMean(query, longestNames, 'fr', localNames, messages));
    expectAccepted('no match', renderDidYouMean(query, [], undefined, undefined, messages));
  });

  it('IP lookups, time lines and refusals', () => {
    const notes: EntryNote[] = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0 ? { kind: 'private', name: `${index}${LONGEST_NAME}` } : { kind: 'unresolved', name: `${index}${LONGEST_NAME}`, failure: 'queryCap' },
    );
    const results = Array.from({ length: 10 }, (_, index) => longestAddress(index));
    expectAccepted('lookup', renderLookup({ results, notes, notLocated: 290, now: NOW, ephemeral: true, skipped: 90, messages }));
    expectAccepted('time', renderTimeLine(longestAddress(0), NOW, false, messages));
    expectAccepted('unknown time', renderTimeLine(longestAddress(1), NOW, false, messages));
    const problems: EntryProblem[] = ['notAddress', 'cidr', 'percentOrZone', 'badCharacters', 'labelTooLong', 'nameTooLong', 'privateName'];
    const rejected = Array.from({ length: 30 }, (_, index) => ({ entry: `bad${'x'.repeat(100)}${index}`, problem: problems[index % problems.length]! }));
    expectAccepted('rejected', { content: renderRejectedEntries(rejected, [], messages) });
  });

  it('every failure sentence', () => {
    const kinds: UpstreamErrorKind[] = ['not_found', 'invalid_input', 'unavailable', 'rate_limited', 'busy', 'bad_response', 'unauthorized'];
    const failures: unknown[] = [
      new Error('boom'),
      new UserError((t) => t.card.noMatch('“' + 'q'.repeat(80) + '”')),
      ...kinds.flatMap((kind) => [new UpstreamError('wallhaven', kind, 'x'), new UpstreamError('ygoprodeck', kind, 'x', { retryAfterMs: 3_600_000 })]),
    ];
    for (const failure of failures) expectAccepted(String(failure), { content: describeFailure(failure, messages) });
  });
});
