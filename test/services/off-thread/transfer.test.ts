import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALIASES } from '../../../src/cards/aliases.js';
import { buildMatcherTables, type MatchableCard } from '../../../src/cards/matcher-tables.js';
import { soundKey } from '../../../src/cards/sound-key.js';
import { packCards, packNames, packTables, unpackBuildInput } from '../../../src/services/off-thread/transfer.js';
import { loadCardDump } from '../../helpers/card-dump.js';
import { fuzzRuns } from '../../helpers/fuzz-runs.js';

/** What a worker receives: the message cloned, its buffers moved. */
const overTheWire = <T>({ message, transfer }: { message: T; transfer: ArrayBuffer[] }): T => structuredClone(message, { transfer });

/** What a worker receives to build: the packed parts cloned. */
const buildInput = async (list: readonly MatchableCard[], aliases: Readonly<Record<string, string>>, names: ReadonlyMap<'fr', ReadonlyMap<number, string>>) =>
  structuredClone({ cards: await packCards(list), aliases, languages: [...names].map(([language, byPasscode]) => packNames(language, byPasscode)) });

const cards: MatchableCard[] = [
  { id: 46986414, name: 'Dark Magician', altNames: ['Dark Magician (old)'], konamiId: 4041, popularity: 900 },
  { id: 89631139, name: 'Blue-Eyes White Dragon', popularity: 1000 },
  { id: 5318639, name: 'Mystical Space Typhoon' },
  { id: 12345678, name: 'Ｈｅｒｏ ☆ Ünïcode — Dragon', altNames: ['', 'Second', 'Third'] },
];

describe('matcher build transfer', () => {
  it('brings cards, aliases and each language’s names across as they were (absent fields stay absent)', async () => {
    const names = new Map([['fr' as const, new Map([[46986414, 'Magicien Sombre'], [5318639, 'Typhon d’Espace Mystique']])]]);
    const { cards: received, aliases, localizedNames } = unpackBuildInput(await buildInput(cards, DEFAULT_ALIASES, names));
    expect(received).toEqual(cards);
    expect(aliases).toEqual(DEFAULT_ALIASES);
    expect([...localizedNames('fr')]).toEqual([...names.get('fr')!]);
    expect([...localizedNames('de')]).toEqual([]);
  });

  it('packs real cards the same whether it yields the event loop after every card or never', async () => {
    const real: MatchableCard[] = loadCardDump()
      .slice(0, 2_000)
      .map(({ id, name }, at) => ({ id, name, ...(at % 5 === 0 ? { altNames: [`${name} (old)`] } : {}), ...(at % 3 === 0 ? { konamiId: 4_000 + at } : {}), popularity: at }));
    // Counts the turns of the event loop while packing: other work ran between the slices.
    let turns = 0;
    let packing = true;
    const tick = (): void => void (packing && (turns++, setImmediate(tick)));
    setImmediate(tick);
    const sliced = await packCards(real, 0);
    packing = false;
    expect(turns).toBeGreaterThan(1_000);
    expect(sliced).toEqual(await packCards(real, Number.POSITIVE_INFINITY));
    expect(unpackBuildInput({ cards: sliced, aliases: {}, languages: [] }).cards).toEqual(real);
  });

  it('gives back tables equal to the ones built, absent local names included, every typed array moved', () => {
    const tables = buildMatcherTables(cards, DEFAULT_ALIASES, soundKey, (language) => (language === 'de' ? [[89631139, 'Blauäugiger w. Drache']] : []));
    const expected = structuredClone(tables);
    expect(overTheWire(packTables(tables))).toEqual(expected);
    // Moved, not copied: the worker's arrays are left empty.
    expect(tables.entryCompact.offsets.length + tables.singleWords.postings.length + tables.passcodes.ids.length).toBe(0);
  });

  it('keeps any list of strings, empty and non-Latin-1 ones included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ id: fc.nat(), name: fc.string({ unit: 'grapheme' }), altNames: fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 3 }) }), { maxLength: 20 }), async (list) => {
        const received = unpackBuildInput(await buildInput(list, {}, new Map())).cards;
        expect(received).toEqual(list.map((card) => (card.altNames.length === 0 ? { id: card.id, name: card.name } : card)));
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});
