import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompactRecords } from '../../src/cards/compact-records.js';
import { cardsWithText, holdsWord, needle, WordIndex, type EffectTexts } from '../../src/cards/text-search.js';

function texts(records: { id: number; name: string; description: Record<string, string>; sets?: string[] }[]): EffectTexts {
  const compact = CompactRecords.of(records);
  return { records: compact, idAt: (index) => records[index]!.id };
}

const CARDS = texts([
  { id: 1, name: 'Raigeki', description: { text: 'Destroy all monsters your opponent controls.' }, sets: ['Graveyard Destroyer Pack'] },
  { id: 2, name: 'Flash Card', description: { text: 'Flash: draw 1 card.\nDestroy this card.' } },
  { id: 3, name: 'Pendulum', description: { text: 'x', pendulumEffect: 'Once per turn: ATK "Up"}', monsterEffect: 'Détruisez un monstre.' } },
  { id: 4, name: 'Text', description: { text: 'Nothing here.' } },
]);
const find = (...terms: string[]) => cardsWithText(CARDS, (_, text) => terms.map(needle).every((term) => holdsWord(text, term)));

describe('cardsWithText', () => {
  it('finds words and phrases at the start of a word, in any case, in every text of the card', () => {
    expect(find('destroy')).toEqual([1, 2]);
    expect(find('DESTROY ALL')).toEqual([1]);
    expect(find('destr', 'card')).toEqual([2]);
    expect(find('ash')).toEqual([]);
    expect(find('up')).toEqual([3]);
    expect(find('détruisez un')).toEqual([3]);
  });

  it('reads only the texts: not the set names, the field names, nor another card', () => {
    expect(find('graveyard')).toEqual([]);
    expect(find('text')).toEqual([]);
    expect(find('pendulumeffect')).toEqual([]);
    // The texts are read JSON-escaped: the `n` of a line break's `\n` is no word.
    expect(find('n')).toEqual([4]);
    expect(find('ndestroy')).toEqual([]);
  });

  it('leaves out the cards not wanted, without reading them', () => {
    expect(cardsWithText(CARDS, () => true, (id) => id % 2 === 0)).toEqual([2, 4]);
    expect(cardsWithText(CARDS, () => true, () => false)).toEqual([]);
  });

  it('finds any word of any text it holds, and never throws on any term', () => {
    const word = fc.stringMatching(/^[a-zà-ÿ]{1,10}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), fc.nat(), fc.string(), (words, pick, noise) => {
        const records = texts([{ id: 7, name: 'x', description: { text: words.join(' ') } }]);
        const target = words[pick % words.length]!;
        expect(cardsWithText(records, (_, text) => holdsWord(text, needle(target.toUpperCase())))).toEqual([7]);
        cardsWithText(records, (_, text) => holdsWord(text, needle(noise)));
      }),
    );
  });
});

describe('WordIndex', () => {
  const holdersOf = async (records: EffectTexts, term: string) =>
    [...(await WordIndex.build(records, async () => {})).holders(needle(term))].flatMap((holds, record) => (holds === 1 ? [records.idAt(record)] : []));

  it('answers a word exactly as reading the texts does, and a phrase with every card that holds it', async () => {
    expect(await holdersOf(CARDS, 'destroy')).toEqual([1, 2]);
    expect(await holdersOf(CARDS, 'ash')).toEqual([]);
    expect(await holdersOf(CARDS, 'pendulumeffect')).toEqual([]);
    expect(await holdersOf(CARDS, 'détruisez')).toEqual([3]);
    expect(await holdersOf(CARDS, 'destroy all')).toEqual(expect.arrayContaining([1]));
    const index = await WordIndex.build(CARDS, async () => {});
    expect([...index.holders(needle('destroy'), needle('card'))]).toEqual([0, 1, 0, 0]);
    expect([...index.holders()]).toEqual([1, 1, 1, 1]);
    expect(WordIndex.isOneWord(needle('Détruisez'))).toBe(true);
    expect(WordIndex.isOneWord(needle('destroy all'))).toBe(false);
  });

  it('agrees with reading the texts for any one-word term, and holds every card a longer term is found in', async () => {
    const word = fc.stringMatching(/^[a-zà-ÿ]{1,6}$/);
    const text = fc.array(fc.oneof(word, fc.constantFrom(' ', '.', '\n', '"', '-', '(', ')', ': ')), { maxLength: 12 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), fc.oneof(word, fc.string()), async (bodies, term) => {
        const records = texts(bodies.map((body, index) => ({ id: index + 1, name: 'x', description: { text: body } })));
        const read = cardsWithText(records, (_, found) => holdsWord(found, needle(term)));
        const held = await holdersOf(records, term);
        if (WordIndex.isOneWord(needle(term))) expect(held).toEqual(read);
        else expect(held).toEqual(expect.arrayContaining(read));
      }),
    );
  });
});
