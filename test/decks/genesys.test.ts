import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenesysPool, type GenesysEntry } from '../../src/cards/genesys.js';
import { normaliseCard } from '../../src/cards/normalise-card.js';
import type { Card } from '../../src/cards/card.js';
import { deckReport } from '../../src/decks/deck-report.js';
import type { DeckList } from '../../src/decks/deck-list.js';
import { parseYdke } from '../../src/decks/ydke.js';
import { CompactRecords } from '../../src/cards/compact-records.js';
import { YgoprodeckClient } from '../../src/services/ygoprodeck/ygoprodeck.js';
import { BASTION_653 } from '../helpers/genesys-decks.js';
import { asDownloaded, loadCardDump, startFakeYgoprodeck, TEST_PACE, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';

const KING_CALAMITY = 62242678;
const RED_DRAGON_ARCHFIEND = 70902743;
const DECODE_TALKER = 1861629;

let fake: FakeYgoprodeck;
let client: YgoprodeckClient;
let pool: GenesysPool;
const cards = new Map<number, Card>();

beforeAll(async () => {
  const dump = loadCardDump();
  fake = await startFakeYgoprodeck({ cards: dump });
  client = new YgoprodeckClient({ baseUrl: fake.url, imagesBaseUrl: fake.imagesUrl, limits: TEST_PACE });
  // The pool as the bot downloads it, through the same reader.
  const download = await client.downloadGenesys();
  const entries: GenesysEntry[] = [];
  CompactRecords.parse(download.body, (record): record is GenesysEntry => entries.push(record as GenesysEntry) > 0);
  pool = new GenesysPool(entries);
  for (const raw of dump) {
    const result = normaliseCard(asDownloaded(raw));
    if (result.ok) cards.set(result.card.id, result.card);
  }
}, 60_000);

afterAll(async () => {
  await client?.close();
  await fake?.close();
});

function bastionDeck(): DeckList {
  const parsed = parseYdke(BASTION_653);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.deck;
}

const report = (deck: DeckList, cap = 100) => deckReport(deck, (password) => cards.get(password), { pool, cap }).genesys;

describe('Genesys verdict against the fake YGOPRODeck’s pool', () => {
  it('Bastion #653’s deck totals exactly 100 and is legal at the cap of 100, its pointed cards dearest first', () => {
    const verdict = report(bastionDeck());
    expect(verdict).toMatchObject({ status: 'legal', total: 100, cap: 100, violations: [] });
    expect(verdict.pointed.map((entry) => [entry.card.name, entry.count, entry.points])).toEqual([
      ['Pot of Greed', 2, 60],
      ['Mulcharmy Purulia', 2, 20],
      ['Mulcharmy Fuwalos', 2, 14],
      ['Ghost Ogre & Snow Rabbit', 1, 5],
      ['Hot Red Dragon Archfiend King Calamity', 1, 1],
    ]);
  });

  it('one point more (a second King Calamity in the side deck) is over the cap; a cap of 101 takes it', () => {
    const deck = { ...bastionDeck(), side: [KING_CALAMITY] };
    expect(report(deck)).toMatchObject({ status: 'illegal', total: 101, violations: [{ kind: 'overCap', total: 101, cap: 100 }] });
    expect(report(deck, 101)).toMatchObject({ status: 'legal', total: 101, cap: 101 });
  });

  it('a Link monster makes it illegal, whatever the points', () => {
    const deck = bastionDeck();
    const extra = [...deck.extra];
    extra[extra.indexOf(RED_DRAGON_ARCHFIEND)] = DECODE_TALKER;
    expect(cards.get(DECODE_TALKER)?.frameType).toBe('link');
    expect(pool.pointsOf(DECODE_TALKER)).toBeUndefined();
    expect(report({ ...deck, extra })).toMatchObject({ status: 'illegal', total: 100, violations: [{ kind: 'notAllowed', name: 'Decode Talker' }] });
  });

  it('an unknown password makes it unknown, and so does a pool not loaded yet', () => {
    const deck = bastionDeck();
    const main = [...deck.main];
    main[main.length - 1] = 12345678;
    expect(report({ ...deck, main })).toMatchObject({ status: 'unknown', unknownBecause: 'unknownCards' });
    expect(deckReport(deck, (password) => cards.get(password), { pool: null, cap: 100 }).genesys).toMatchObject({ status: 'unknown', unknownBecause: 'noPoints', total: 0 });
  });

  it('counts copies by name and only TCG releases', () => {
    const deck = bastionDeck();
    const fourPots = { ...deck, main: [...deck.main.slice(0, 38), 55144522, 55144522] };
    expect(report(fourPots, 1_000).violations).toContainEqual({ kind: 'copies', name: 'Pot of Greed', count: 4 });
    const ocgOnly = new Map(cards);
    ocgOnly.set(KING_CALAMITY, { ...cards.get(KING_CALAMITY)!, formats: ['OCG'] });
    expect(deckReport(deck, (password) => ocgOnly.get(password), { pool, cap: 100 }).genesys.violations).toEqual([
      { kind: 'notReleased', name: 'Hot Red Dragon Archfiend King Calamity' },
    ]);
  });
});
