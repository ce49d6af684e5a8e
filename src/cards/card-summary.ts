import type { Card } from './card.js';

/**
 * What every keystroke needs of a card, kept live for every card of the database (the rest of
 * each card stays compact until it is shown): its names for the matcher, what `/card search`
 * filters on and menus show, and its ban-list statuses (the history records them without reading
 * every card). A `Card` is a `CardSummary` too.
 */
export type CardSummary = Readonly<
  Pick<Card, 'id' | 'name' | 'kind' | 'typeLine' | 'attribute' | 'level' | 'rank' | 'archetype' | 'altNames' | 'konamiId' | 'views' | 'formats' | 'banlist'
    | 'race' | 'atk' | 'def' | 'linkRating' | 'scale' | 'tcgDate' | 'ocgDate'>
>;

/**
 * The summary of `card`. Strings that repeat across cards (type lines, attributes, archetypes) are
 * taken from `interned`, and format lists from `internedFormats`, so that 13,000 summaries share a
 * few hundred of them.
 */
export function summarizeCard(card: Card, interned: Map<string, string>, internedFormats: Map<string, string[]>): CardSummary {
  const intern = (text: string): string => {
    const known = interned.get(text);
    if (known !== undefined) return known;
    interned.set(text, text);
    return text;
  };
  return {
    id: card.id,
    name: card.name,
    kind: card.kind,
    typeLine: intern(card.typeLine),
    ...(card.attribute === undefined ? {} : { attribute: intern(card.attribute) }),
    ...(card.level === undefined ? {} : { level: card.level }),
    ...(card.rank === undefined ? {} : { rank: card.rank }),
    ...(card.archetype === undefined ? {} : { archetype: intern(card.archetype) }),
    // What /card search narrows by: small numbers and a few hundred distinct races and dates, shared.
    ...(card.race === undefined ? {} : { race: intern(card.race) }),
    ...(card.atk === undefined ? {} : { atk: card.atk }),
    ...(card.def === undefined ? {} : { def: card.def }),
    ...(card.linkRating === undefined ? {} : { linkRating: card.linkRating }),
    ...(card.scale === undefined ? {} : { scale: card.scale }),
    ...(card.tcgDate === undefined ? {} : { tcgDate: intern(card.tcgDate) }),
    ...(card.ocgDate === undefined ? {} : { ocgDate: intern(card.ocgDate) }),
    altNames: card.altNames.length === 0 ? NO_NAMES : card.altNames,
    ...(card.konamiId === undefined ? {} : { konamiId: card.konamiId }),
    views: card.views,
    formats: internFormats(card.formats, internedFormats),
    // Most cards are on no list: they share one empty object.
    banlist: Object.keys(card.banlist).length === 0 ? NO_BANLIST : card.banlist,
  };
}

function internFormats(formats: string[], interned: Map<string, string[]>): string[] {
  const key = formats.join('\n');
  const known = interned.get(key);
  if (known !== undefined) return known;
  interned.set(key, formats);
  return formats;
}

/** Shared by the many cards on no ban list; never mutated. */
const NO_BANLIST: Card['banlist'] = Object.freeze({});

/** Shared by the many cards without an old name; never mutated. */
const NO_NAMES: string[] = [];
