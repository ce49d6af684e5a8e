import type { CardSearchFilters } from '../cards/search-filters.js';
import { banlistFormatOf, FORMAT_FILTERS } from '../cards/search-filters.js';
import {
  BAN_STATUS_FILTERS,
  CARD_RACES,
  parseBanStatus,
  parseCardQuery,
  parseDateOption,
  parseStatOption,
  raceKey,
  tokensOf,
  type CardSearchTerms,
  type DateBound,
  type NumericField,
  type QueryProblem,
  type RaceLookup,
  type StatBound,
} from '../cards/search-query.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { OptionValues } from '../interaction/context.js';
import { UserError } from '../interaction/errors.js';
import { quoteUserText } from './user-text.js';

/**
 * `/card search`'s effect-text, race, stat, ban-status and release-date options and the typed
 * syntax of `query`, checked and merged (an option wins over the same filter typed in `query`);
 * what is not understood is refused with a sentence naming it. Races are named in the user's
 * language too.
 */

/** The Spell/Trap properties, named by the type lines they appear in (the catalogues have those phrases). */
const SPELL_TRAP_LINES: Readonly<Record<string, readonly string[]>> = {
  Normal: ['Normal Spell', 'Normal Trap'],
  Continuous: ['Continuous Spell', 'Continuous Trap'],
  Counter: ['Counter Trap'],
  Equip: ['Equip Spell'],
  Field: ['Field Spell'],
  'Quick-Play': ['Quick-Play Spell'],
  Ritual: ['Ritual Spell'],
};

/** A race (`Sea Serpent`, `Quick-Play`) as the user's language names it. */
export function raceLabel(race: string, messages: Catalogue): string {
  const terms = messages.cardTerms;
  const lines = SPELL_TRAP_LINES[race];
  if (lines !== undefined) return lines.map((line) => terms.spellTrapLines[line as keyof typeof terms.spellTrapLines]).join(' / ');
  return terms.typeParts[race as keyof typeof terms.typeParts] ?? race;
}

/** Finds a race by its English name or its name in the user's language (any case, spaces or hyphens). */
export function raceLookup(messages: Catalogue): RaceLookup {
  const byName = new Map(CARD_RACES);
  for (const race of CARD_RACES.values()) {
    byName.set(raceKey(raceLabel(race, messages)), race);
    for (const line of SPELL_TRAP_LINES[race] ?? []) byName.set(raceKey(messages.cardTerms.spellTrapLines[line as keyof Catalogue['cardTerms']['spellTrapLines']]), race);
  }
  return (name) => byName.get(raceKey(name));
}

/** The race suggestions for what the user typed, in their language; the value is the English race. */
export function raceSuggestions(typed: string, messages: Catalogue): { name: string; value: string }[] {
  const needle = typed.trim().toLowerCase();
  return [...CARD_RACES.values()]
    .map((race) => ({ name: raceLabel(race, messages), value: race }))
    .filter((choice) => needle === '' || choice.name.toLowerCase().includes(needle) || choice.value.toLowerCase().includes(needle));
}

/** The sentence that names what the typed query or an option had that was not understood. */
export function queryProblemSentence(problem: QueryProblem, messages: Catalogue): string {
  const t = messages.cardSearch;
  switch (problem.kind) {
    case 'unbalanced-quote':
      return t.unbalancedQuote('"');
    case 'bad-bound':
      return t.badStat(quoteUserText(problem.token));
    case 'bad-date':
      return t.badDate(quoteUserText(problem.token));
    case 'unknown-race':
      return t.unknownRace(quoteUserText(problem.value));
    case 'unknown-status':
      return t.unknownStatus(quoteUserText(problem.value));
  }
}

function refuse(problem: QueryProblem): never {
  throw new UserError((t) => queryProblemSentence(problem, t));
}

export interface CheckedSearch {
  terms: CardSearchTerms;
  /** The filters beyond `checkedFilters`' (race, stats, ban status, release date). */
  filters: Pick<CardSearchFilters, 'race' | 'atk' | 'def' | 'link' | 'scale' | 'banned' | 'released'>;
}

/** The query and the new options, checked; throws a UserError naming the first part not understood. */
export function checkedSearch(options: Pick<OptionValues, 'getString'>, base: CardSearchFilters, messages: Catalogue): CheckedSearch {
  const races = raceLookup(messages);
  const parsed = parseCardQuery(options.getString('query') ?? '', races);
  if (!parsed.ok) refuse(parsed.problem);
  const { query } = parsed;
  const filters: CheckedSearch['filters'] = {};
  const race = options.getString('race');
  if (race !== null) filters.race = races(race) ?? refuse({ kind: 'unknown-race', value: race });
  else if (query.race !== undefined) filters.race = query.race;
  for (const field of ['atk', 'def', 'link', 'scale'] as const satisfies readonly NumericField[]) {
    const value = options.getString(field);
    const bound: StatBound | undefined = value === null ? query.bounds[field] : (parseStatOption(value) ?? refuse({ kind: 'bad-bound', token: value }));
    if (bound !== undefined) filters[field] = bound;
  }
  const banned = options.getString('banned');
  if (banned !== null) filters.banned = parseBanStatus(banned) ?? refuse({ kind: 'unknown-status', value: banned });
  else if (query.banned !== undefined) filters.banned = query.banned;
  if (filters.banned !== undefined && banlistFormatOf(base.format) === undefined) {
    const format = FORMAT_FILTERS[base.format!];
    throw new UserError((t) => t.cardSearch.noBanlist(format));
  }
  const released = options.getString('released');
  const dates: DateBound | undefined = released === null ? query.released : (parseDateOption(released) ?? refuse({ kind: 'bad-date', token: released }));
  if (dates !== undefined) filters.released = dates;
  const textOption = tokensOf(options.getString('text') ?? '') ?? refuse({ kind: 'unbalanced-quote' });
  // Loose words of the query go to the name matcher as typed; quoted phrases must appear whole.
  const rawQuery = tokensOf(options.getString('query') ?? '') ?? [];
  const words = rawQuery.filter((token) => !token.quoted && query.terms.includes(token.text.toLowerCase())).map((token) => token.text);
  const phrases = rawQuery.filter((token) => token.quoted).map((token) => token.text.toLowerCase());
  return { terms: { words: words.join(' '), phrases, text: textOption.map((token) => token.text.toLowerCase()) }, filters };
}

/** The new filters as the list's footer names them, e.g. `Dragon, ATK ≥ 2500, Text: "destroy all"`. */
export function searchFilterLabels(filters: CardSearchFilters, text: readonly string[], messages: Catalogue): string[] {
  const labels: string[] = [];
  if (filters.race !== undefined) labels.push(raceLabel(filters.race, messages));
  for (const [field, label] of [['atk', 'ATK'], ['def', 'DEF'], ['link', 'Link'], ['scale', 'Scale']] as const) {
    const bound = filters[field];
    if (bound !== undefined) labels.push(`${label} ${statRange(bound)}`);
  }
  if (filters.banned !== undefined) labels.push(messages.cardTerms.banStatuses[BAN_STATUS_FILTERS[filters.banned]]);
  if (filters.released !== undefined) labels.push(messages.cardSearch.releasedFilter(dateRange(filters.released)));
  if (text.length > 0) labels.push(messages.cardSearch.textFilter(text.map((term) => `"${term}"`).join(' ')));
  return labels;
}

function statRange(bound: StatBound): string {
  if (bound === '?') return '?';
  if (bound.min === bound.max) return String(bound.min);
  if (bound.min === 0) return `≤ ${bound.max}`;
  return bound.max >= 99_999 ? `≥ ${bound.min}` : `${bound.min}–${bound.max}`;
}

function dateRange(bound: DateBound): string {
  if (bound.from !== undefined && bound.before !== undefined) return `${bound.from} – ${bound.before}`;
  return bound.from !== undefined ? `≥ ${bound.from}` : `< ${bound.before ?? ''}`;
}
