/**
 * The typed syntax of `/card search query` (`atk>=2500 race:dragon "destroy all"`): numeric bounds, a race,
 * quoted phrases and loose words. Pure parsing only; a malformed part is named back so the reply can say
 * exactly what was not understood instead of silently matching nothing.
 */

export const NUMERIC_FIELDS = ['atk', 'def', 'link', 'scale'] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];
export type Comparison = '=' | '<' | '<=' | '>' | '>=';

/** Monster races and Spell/Trap properties as YGOPRODeck spells them, keyed by their lower-case form. */
export const CARD_RACES: ReadonlyMap<string, string> = new Map(
  [
    'Aqua', 'Beast', 'Beast-Warrior', 'Creator-God', 'Cyberse', 'Dinosaur', 'Divine-Beast', 'Dragon', 'Fairy',
    'Fiend', 'Fish', 'Illusion', 'Insect', 'Machine', 'Plant', 'Psychic', 'Pyro', 'Reptile', 'Rock', 'Sea Serpent',
    'Spellcaster', 'Thunder', 'Warrior', 'Winged Beast', 'Wyrm', 'Zombie', 'Normal', 'Continuous', 'Counter',
    'Equip', 'Field', 'Quick-Play', 'Ritual',
  ].map((race) => [race.toLowerCase().replace(' ', '-'), race]),
);

export interface NumericBound {
  comparison: Comparison;
  value: number;
}

export interface CardQuery {
  bounds: Partial<Record<NumericField, NumericBound>>;
  race?: string;
  /** Quoted phrases and loose words, lower-cased; each must appear in the card's name or text. */
  terms: string[];
}

export type QueryProblem =
  | { kind: 'unbalanced-quote' }
  | { kind: 'bad-bound'; token: string }
  | { kind: 'unknown-race'; value: string };

export type QueryParse = { ok: true; query: CardQuery } | { ok: false; problem: QueryProblem };

/** Card stats stay far below this; larger figures are typos, not filters. */
const MAX_STAT = 99_999;
const BOUND = /^(atk|def|link|scale)(<=|>=|=|<|>|:)(.*)$/i;

export function parseCardQuery(input: string): QueryParse {
  if ((input.match(/"/g)?.length ?? 0) % 2 === 1) return { ok: false, problem: { kind: 'unbalanced-quote' } };
  const query: CardQuery = { bounds: {}, terms: [] };
  for (const [, phrase, token] of input.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (phrase !== undefined) {
      const term = phrase.trim().toLowerCase();
      if (term !== '') query.terms.push(term);
      continue;
    }
    if (token === undefined) continue;
    const bound = BOUND.exec(token);
    if (bound !== null) {
      const [, field, operator, digits] = bound;
      const value = Number(digits);
      if (!/^\d{1,5}$/.test(digits ?? '') || value > MAX_STAT) return { ok: false, problem: { kind: 'bad-bound', token } };
      query.bounds[field!.toLowerCase() as NumericField] = {
        comparison: operator === ':' ? '=' : (operator as Comparison),
        value,
      };
      continue;
    }
    const race = /^race:(.*)$/i.exec(token);
    if (race !== null) {
      const name = CARD_RACES.get(race[1]!.toLowerCase());
      if (name === undefined) return { ok: false, problem: { kind: 'unknown-race', value: race[1]! } };
      query.race = name;
      continue;
    }
    query.terms.push(token.toLowerCase());
  }
  return { ok: true, query };
}

export function satisfiesBound(actual: number | undefined, bound: NumericBound): boolean {
  if (actual === undefined) return false;
  switch (bound.comparison) {
    case '=':
      return actual === bound.value;
    case '<':
      return actual < bound.value;
    case '<=':
      return actual <= bound.value;
    case '>':
      return actual > bound.value;
    case '>=':
      return actual >= bound.value;
  }
}
