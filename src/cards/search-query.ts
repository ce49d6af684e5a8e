/**
 * What `/card search` narrows by beyond the frame filters, as its options take it and as the typed
 * syntax of `query` writes it (`atk>=2500 race:dragon "destroy all"`): stat bounds, a race, a
 * ban-list status, a release date, quoted phrases and loose words. Pure parsing only; a malformed
 * part is named back so the reply can say exactly what was not understood instead of silently
 * matching nothing.
 */

export const NUMERIC_FIELDS = ['atk', 'def', 'link', 'scale'] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];

/** Monster races and Spell/Trap properties as YGOPRODeck spells them, keyed by their lower-case form. */
export const CARD_RACES: ReadonlyMap<string, string> = new Map(
  [
    'Aqua', 'Beast', 'Beast-Warrior', 'Creator-God', 'Cyberse', 'Dinosaur', 'Divine-Beast', 'Dragon', 'Fairy',
    'Fiend', 'Fish', 'Illusion', 'Insect', 'Machine', 'Plant', 'Psychic', 'Pyro', 'Reptile', 'Rock', 'Sea Serpent',
    'Spellcaster', 'Thunder', 'Warrior', 'Winged Beast', 'Wyrm', 'Zombie', 'Normal', 'Continuous', 'Counter',
    'Equip', 'Field', 'Quick-Play', 'Ritual',
  ].map((race) => [raceKey(race), race]),
);

/** How a race is looked up: lower case, spaces as hyphens (`race:sea-serpent`, `race:Sea Serpent`). */
export function raceKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_]+/g, '-');
}

export const BAN_STATUS_FILTERS = { forbidden: 'Forbidden', limited: 'Limited', 'semi-limited': 'Semi-Limited' } as const;
export type BanStatusFilter = keyof typeof BAN_STATUS_FILTERS;

/** An inclusive range of a stat, or `?` (a stat printed as a question mark). */
export type StatBound = { min: number; max: number } | '?';

/** Release dates as `YYYY-MM-DD`: from `from` (inclusive) and before `before` (exclusive). */
export interface DateBound {
  from?: string;
  before?: string;
}

export interface CardQuery {
  bounds: Partial<Record<NumericField, StatBound>>;
  race?: string;
  banned?: BanStatusFilter;
  released?: DateBound;
  /** Quoted phrases and loose words, lower-cased. */
  terms: string[];
}

/** What a search asks beside the filters. */
export interface CardSearchTerms {
  /** Loose words: the card's name (fuzzy, in the user's language too), or the start of words of its texts. */
  words: string;
  /** Quoted phrases of the query, lower-cased: each in the card's name or its texts. */
  phrases: readonly string[];
  /** The `text` option's words and phrases, lower-cased: each in the card's texts. */
  text: readonly string[];
}

export type QueryProblem =
  | { kind: 'unbalanced-quote' }
  | { kind: 'bad-bound'; token: string }
  | { kind: 'unknown-race'; value: string }
  | { kind: 'unknown-status'; value: string }
  | { kind: 'bad-date'; token: string };

export type QueryParse = { ok: true; query: CardQuery } | { ok: false; problem: QueryProblem };

/** Card stats stay far below this; larger figures are typos, not filters. */
export const MAX_STAT = 99_999;
const STAT_TOKEN = /^(atk|def|link|scale)(<=|>=|=|<|>|:)(.*)$/i;
const OTHER_TOKEN = /^(race|banned|released)(<=|>=|=|<|>|:)(.*)$/i;

/** Finds a race by any of its names (the user's language's too); English names when none is given. */
export type RaceLookup = (name: string) => string | undefined;
const englishRace: RaceLookup = (name) => CARD_RACES.get(raceKey(name));

/** The query's parts; `races` also knows the races' names in the user's language. */
export function parseCardQuery(input: string, races: RaceLookup = englishRace): QueryParse {
  const tokens = tokensOf(input);
  if (tokens === null) return { ok: false, problem: { kind: 'unbalanced-quote' } };
  const query: CardQuery = { bounds: {}, terms: [] };
  for (const { text, quoted } of tokens) {
    if (quoted) {
      query.terms.push(text.toLowerCase());
      continue;
    }
    const stat = STAT_TOKEN.exec(text);
    if (stat !== null) {
      const bound = parseStatBound(stat[2]!, stat[3]!);
      if (bound === null) return { ok: false, problem: { kind: 'bad-bound', token: text } };
      query.bounds[stat[1]!.toLowerCase() as NumericField] = bound;
      continue;
    }
    const other = OTHER_TOKEN.exec(text);
    if (other === null) {
      query.terms.push(text.toLowerCase());
      continue;
    }
    const [, field, operator, value] = other as unknown as [string, string, string, string];
    const problem = applyOther(query, field.toLowerCase(), operator, value, text, races);
    if (problem !== null) return { ok: false, problem };
  }
  return { ok: true, query };
}

function applyOther(query: CardQuery, field: string, operator: string, value: string, token: string, races: RaceLookup): QueryProblem | null {
  if (field === 'released') {
    const released = parseDateBound(operator, value);
    if (released === null) return { kind: 'bad-date', token };
    query.released = released;
    return null;
  }
  // race and banned take a name, so only `:` or `=`; `race:sea-serpent` reads as Sea Serpent.
  const named = operator === ':' || operator === '=' ? value : `${operator}${value}`;
  if (field === 'race') {
    const race = races(named);
    if (race === undefined) return { kind: 'unknown-race', value: named };
    query.race = race;
    return null;
  }
  const status = parseBanStatus(named);
  if (status === undefined) return { kind: 'unknown-status', value: named };
  query.banned = status;
  return null;
}

/** Quoted phrases (trimmed, empty ones dropped) and the words between them; null when a quote is left open. */
export function tokensOf(input: string): { text: string; quoted: boolean }[] | null {
  if ((input.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  const tokens: { text: string; quoted: boolean }[] = [];
  for (const [, phrase, word] of input.matchAll(/"([^"]*)"|([^\s"]+)/g)) {
    if (phrase !== undefined) {
      const text = phrase.trim().replace(/\s+/g, ' ');
      if (text !== '') tokens.push({ text, quoted: true });
    } else if (word !== undefined) tokens.push({ text: word, quoted: false });
  }
  return tokens;
}

/**
 * A stat bound as the `atk`/`def`/`link`/`scale` options and the typed syntax write it: `2500`,
 * `>=2500`, `<1000`, `1000-2000`, `?`; `operator` is what the typed syntax put before the value
 * (`:` or `=` for none). Null when it is none of these.
 */
export function parseStatBound(operator: string, value: string): StatBound | null {
  const text = value.trim();
  if (text === '?') return operator === ':' || operator === '=' ? '?' : null;
  const range = /^(\d{1,5})\s*-\s*(\d{1,5})$/.exec(text);
  if (range !== null) {
    if (operator !== ':' && operator !== '=') return null;
    const [low, high] = [Number(range[1]), Number(range[2])];
    return low <= high && high <= MAX_STAT ? { min: low, max: high } : null;
  }
  if (!/^\d{1,5}$/.test(text) || Number(text) > MAX_STAT) return null;
  const number = Number(text);
  switch (operator) {
    case '<':
      return number === 0 ? null : { min: 0, max: number - 1 };
    case '<=':
      return { min: 0, max: number };
    case '>':
      return number === MAX_STAT ? null : { min: number + 1, max: MAX_STAT };
    case '>=':
      return { min: number, max: MAX_STAT };
    default:
      return { min: number, max: number };
  }
}

/** An option's stat bound (`>=2500`, `1000-2000`, `?`): the operator, if any, leads the value. */
export function parseStatOption(input: string): StatBound | null {
  return parseStatBound(...leadingOperator(input));
}

/** An option's leading operator (`:` when none) and the rest, line breaks and all. */
function leadingOperator(input: string): [operator: string, value: string] {
  // An empty match at worst: this never fails, whatever the input holds.
  const match = /^\s*(<=|>=|=|<|>)?/.exec(input)!;
  return [match[1] ?? ':', input.slice(match[0].length)];
}

/**
 * A release-date bound: `2024`, `2024-05` or `2024-05-17` after an operator (`<`, `<=`, `>`, `>=`,
 * or `:`/`=` for within that year, month or day). Null when the date is not a real one.
 */
export function parseDateBound(operator: string, value: string): DateBound | null {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value.trim());
  if (match === null) return null;
  const [, year, month, day] = match as unknown as [string, string, string | undefined, string | undefined];
  const start = new Date(Date.UTC(Number(year), Number(month ?? 1) - 1, Number(day ?? 1)));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  // Date.UTC rolls 2024-02-30 over to March: such a date is not a real one.
  if (Number(year) < 1900 || iso(start) !== `${year}-${month ?? '01'}-${day ?? '01'}`) return null;
  const end = new Date(start);
  if (day !== undefined) end.setUTCDate(end.getUTCDate() + 1);
  else if (month !== undefined) end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  switch (operator) {
    case '<':
      return { before: iso(start) };
    case '<=':
      return { before: iso(end) };
    case '>':
      return { from: iso(end) };
    case '>=':
      return { from: iso(start) };
    default:
      return { from: iso(start), before: iso(end) };
  }
}

/** An option's release date (`<2010-01-01`, `>=2024`, `2019`): the operator, if any, leads the date. */
export function parseDateOption(input: string): DateBound | null {
  return parseDateBound(...leadingOperator(input));
}

/** `forbidden`, `limited`, `semi-limited` (or `semi`, `semilimited`, any case). */
export function parseBanStatus(input: string): BanStatusFilter | undefined {
  const key = input.trim().toLowerCase().replace(/[\s_]+/g, '-');
  if (key === 'semi' || key === 'semilimited') return 'semi-limited';
  return Object.hasOwn(BAN_STATUS_FILTERS, key) ? (key as BanStatusFilter) : undefined;
}

export function withinStat(actual: number | '?' | undefined, bound: StatBound): boolean {
  if (actual === undefined) return false;
  if (bound === '?' || actual === '?') return bound === '?' && actual === '?';
  return actual >= bound.min && actual <= bound.max;
}

export function withinDates(date: string | undefined, bound: DateBound): boolean {
  if (date === undefined) return false;
  return (bound.from === undefined || date >= bound.from) && (bound.before === undefined || date < bound.before);
}
