import { ButtonStyle, ComponentType, type APIButtonComponentWithCustomId, type APIStringSelectComponent } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/cards/card.js';
import { CARD_SET_KEY_PATTERN, cardSetKey, type CardSet } from '../../src/cards/card-set.js';
import { normaliseCardSets } from '../helpers/card-sets.js';
import type { Reply } from '../../src/interaction/reply.js';
import { MAX_PRINTINGS_PAGE, parseCardCustomId, printingsCustomId } from '../../src/cards/custom-ids.js';
import { renderCard } from '../../src/render/card.js';
import { SELECT_LIMITS } from '../../src/render/format.js';
import { MAX_SET_PAGE, parseCardSetCustomId, SET_CHOICE_CUSTOM_ID, setPageCustomId } from '../../src/cards/custom-ids.js';
import { noSetMatchMessage, pageWindow, PRINTINGS_PAGE_SIZE, releaseDate, renderCardSet, renderPrintings, renderSetChoices, SET_PAGE_SIZE, type CardSetView } from '../../src/render/card-set.js';
import { EMBED_LIMITS, embedCharacterCount } from '../../src/render/format.js';
import type { PrintingView, SetListing } from '../../src/cards/printings.js';
import { normalisedDumpCards } from '../helpers/card-dump.js';
import { field, only } from '../helpers/components.js';

const CUSTOM_ID_MAX_LENGTH = 100;
const cards = await normalisedDumpCards();
const BLUE_EYES = cards.find((card) => card.id === 89631139)!;
const DARK_MAGICIAN = cards.find((card) => card.id === 46986414)!;
const IMAGE = { format: 'jpg' as const, data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) };

const LOB: CardSet = {
  key: cardSetKey('Legend of Blue Eyes White Dragon'),
  name: 'Legend of Blue Eyes White Dragon',
  code: 'LOB',
  cardCount: 126,
  tcgDate: '2002-03-08',
  imageStem: 'LOB',
};
const UNDATED: CardSet = { key: cardSetKey('Undated Promo'), name: 'Undated Promo', code: 'UDP' };

/** A set's cards as the card service lists them: one entry per card, numbers in order, rarities once each. */
function listingOf(setName: string): SetListing[] {
  const numberOrder = new Intl.Collator('en', { numeric: true });
  return cards
    .filter((card) => card.sets.some((printing) => printing.setName === setName))
    .map((card) => {
      const printings = card.sets.filter((printing) => printing.setName === setName);
      return {
        card,
        numbers: [...new Set(printings.map((printing) => printing.setCode))].sort(numberOrder.compare),
        rarities: [...new Set(printings.map((printing) => printing.rarity))],
      };
    })
    .sort((left, right) => numberOrder.compare(left.numbers[0]!, right.numbers[0]!));
}

const LOB_LISTING = listingOf(LOB.name);

function view(overrides: Partial<CardSetView> = {}): CardSetView {
  return { set: LOB, listings: LOB_LISTING, page: 0, image: IMAGE, sharedCodeWith: 0, ...overrides };
}

function selectOf(reply: Reply): APIStringSelectComponent {
  const select = (reply.components ?? []).flatMap((row) => row.components).find((component) => component.type === ComponentType.StringSelect);
  expect(select).toBeDefined();
  return select as APIStringSelectComponent;
}

function buttonsOf(reply: Reply): APIButtonComponentWithCustomId[] {
  return (reply.components ?? []).flatMap((row) => row.components).filter((component) => component.type === ComponentType.Button) as APIButtonComponentWithCustomId[];
}

/** Every Discord limit a message, its embeds and its components must keep; returns what is broken. */
function limitViolations(reply: Reply): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const embeds = reply.embeds ?? [];
  const total = embeds.reduce((sum, embed) => sum + embedCharacterCount(embed as never), 0);
  check(total <= EMBED_LIMITS.total, `embeds total ${total} characters`);
  for (const embed of embeds) {
    check((embed.title?.length ?? 0) <= EMBED_LIMITS.title, 'title');
    check((embed.description?.length ?? 0) <= EMBED_LIMITS.description, 'description');
    check((embed.footer?.text.length ?? 0) <= EMBED_LIMITS.footer, 'footer');
    for (const entry of embed.fields ?? []) check(entry.value.length > 0 && entry.value.length <= EMBED_LIMITS.fieldValue, `field ${entry.name}`);
  }
  check((reply.content?.length ?? 0) <= EMBED_LIMITS.content, 'content');
  check((reply.components?.length ?? 0) <= 5, 'too many rows');
  const ids = (reply.components ?? []).flatMap((row) => row.components).flatMap((component) => ('custom_id' in component ? [component.custom_id] : []));
  check(new Set(ids).size === ids.length, 'duplicate custom_ids');
  check(ids.every((id) => id.length >= 1 && id.length <= CUSTOM_ID_MAX_LENGTH), 'custom_id length');
  for (const row of reply.components ?? []) {
    check(row.components.length <= 5, 'too many components in a row');
    for (const component of row.components) {
      if (component.type !== ComponentType.StringSelect) continue;
      check(component.options.length > 0 && component.options.length <= SELECT_LIMITS.options, `${component.options.length} options`);
      check(new Set(component.options.map((option) => option.value)).size === component.options.length, 'duplicate option values');
      for (const option of component.options) {
        check(option.label.length > 0 && option.label.length <= SELECT_LIMITS.label, 'option label');
        check(option.value.length > 0 && option.value.length <= SELECT_LIMITS.value, 'option value');
        check((option.description?.length ?? 0) <= SELECT_LIMITS.description, 'option description');
      }
    }
  }
  return problems;
}

const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b|\[object Object\]/;

describe('set and printings custom_ids', () => {
  const setKey = fc.stringMatching(CARD_SET_KEY_PATTERN);
  const setPage = fc.integer({ min: 0, max: MAX_SET_PAGE });
  const cardId = fc.integer({ min: 1, max: 9_999_999_999 });
  const printingsPage = fc.option(fc.integer({ min: 0, max: MAX_PRINTINGS_PAGE }), { nil: undefined });

  it('round-trips every set page within 100 characters', () => {
    fc.assert(
      fc.property(setKey, setPage, (key, page) => {
        const id = setPageCustomId(key, page);
        expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX_LENGTH);
        expect(parseCardSetCustomId(id)).toEqual({ action: 'set-page', key, page });
        expect(parseCardCustomId(id)).toBeNull();
      }),
    );
    expect(setPageCustomId('AbCd_-12', MAX_SET_PAGE)).toHaveLength(21);
  });

  it('round-trips every printings page within 100 characters', () => {
    fc.assert(
      fc.property(cardId, printingsPage, (id, page) => {
        const customId = printingsCustomId(id, page);
        expect(customId.length).toBeLessThanOrEqual(CUSTOM_ID_MAX_LENGTH);
        expect(parseCardCustomId(customId)).toEqual({ action: 'printings', cardId: id, page: page ?? null });
        expect(parseCardSetCustomId(customId)).toBeNull();
      }),
    );
    expect(printingsCustomId(9_999_999_999, MAX_PRINTINGS_PAGE)).toHaveLength(23);
  });

  it('reads back only the ids it makes: anything parsed encodes to exactly the same string', () => {
    const near = fc.oneof(
      fc.string(),
      fc.tuple(fc.constantFrom('card:sp:', 'card:pr:', 'card:set', 'card:open'), fc.string({ maxLength: 24 })).map(([head, tail]) => head + tail),
    );
    fc.assert(
      fc.property(near, (text) => {
        const set = parseCardSetCustomId(text);
        if (set?.action === 'set-page') expect(setPageCustomId(set.key, set.page)).toBe(text);
        if (set?.action === 'set-open') expect(text).toBe(SET_CHOICE_CUSTOM_ID);
        const card = parseCardCustomId(text);
        if (card?.action === 'printings') expect(printingsCustomId(card.cardId, card.page ?? undefined)).toBe(text);
      }),
    );
    for (const junk of ['card:sp:short:1', 'card:sp:AAAAAAAA:01', 'card:sp:AAAAAAAA:-1', 'card:sp:AAAAAAAA:10000', 'card:sp:AAAAAAAA', 'card:set:x']) {
      expect(parseCardSetCustomId(junk)).toBeNull();
    }
    for (const junk of ['card:pr', 'card:pr:0', 'card:pr:012', 'card:pr:12345678901', 'card:pr:1:01', 'card:pr:1:10000', 'card:pr:1:2:3']) {
      expect(parseCardCustomId(junk)).toBeNull();
    }
  });

  it('refuses to make an id for a state it could not read back', () => {
    expect(() => setPageCustomId('short', 0)).toThrow(RangeError);
    expect(() => setPageCustomId(LOB.key, MAX_SET_PAGE + 1)).toThrow(RangeError);
    expect(() => printingsCustomId(0)).toThrow(RangeError);
    expect(() => printingsCustomId(1, -1)).toThrow(RangeError);
  });

  it('pages: at least one, never past what an id can name, and the nearest page that exists', () => {
    expect(pageWindow(0, 15, MAX_SET_PAGE, 3)).toEqual({ page: 0, pages: 1 });
    expect(pageWindow(126, 15, MAX_SET_PAGE, 0)).toEqual({ page: 0, pages: 9 });
    expect(pageWindow(126, 15, MAX_SET_PAGE, 40)).toEqual({ page: 8, pages: 9 });
    expect(pageWindow(10_000_000, 1, 9, 50)).toEqual({ page: 9, pages: 10 });
  });
});

describe('/card set embed', () => {
  it('shows the set’s code, TCG release as a Discord date, size, image, and the first page of its cards with a menu', () => {
    const reply = renderCardSet(view());
    const embed = only(reply.embeds);
    expect(embed).toMatchSnapshot();
    expect(embed.title).toBe('Legend of Blue Eyes White Dragon');
    expect(field(embed, 'Set code')).toBe('`LOB`');
    expect(field(embed, 'TCG release')).toBe(`<t:${Date.UTC(2002, 2, 8, 12) / 1000}:D>`);
    expect(field(embed, 'Cards')).toBe('126');
    expect(embed.thumbnail).toEqual({ url: 'attachment://set-LOB.jpg' });
    expect(reply.files?.map((file) => file.name)).toEqual(['set-LOB.jpg']);
    const lines = embed.description!.split('\n');
    expect(lines).toHaveLength(SET_PAGE_SIZE);
    expect(lines[0]).toBe(`\`${LOB_LISTING[0]!.numbers[0]}\` **${LOB_LISTING[0]!.card.name}** · ${LOB_LISTING[0]!.rarities.join(', ')} · also \`${LOB_LISTING[0]!.numbers[1]}\`, \`${LOB_LISTING[0]!.numbers[2]}\``);
    expect(embed.footer?.text).toBe(`Page 1 / 9 · cards 1–15 of ${LOB_LISTING.length} in the card database`);
    const menu = selectOf(reply);
    expect(menu.custom_id).toBe('card:open');
    expect(menu.options.map((option) => option.value)).toEqual(LOB_LISTING.slice(0, SET_PAGE_SIZE).map((listing) => String(listing.card.id)));
    const darkMagician = LOB_LISTING.findIndex((listing) => listing.card.id === DARK_MAGICIAN.id);
    if (darkMagician < SET_PAGE_SIZE) expect(menu.options[darkMagician]).toMatchObject({ label: 'Dark Magician', description: 'LOB-005 · Ultra Rare' });
    expect(limitViolations(reply)).toEqual([]);
  });

  it('pages with ◀ ▶: ◀ disabled on the first page, ▶ on the last, each naming the page it leads to', () => {
    const first = buttonsOf(renderCardSet(view()));
    expect(first.map((button) => [button.label, button.disabled, parseCardSetCustomId(button.custom_id)])).toEqual([
      ['◀', true, { action: 'set-page', key: LOB.key, page: 0 }],
      ['▶', false, { action: 'set-page', key: LOB.key, page: 1 }],
    ]);
    expect(first.every((button) => button.style === ButtonStyle.Secondary)).toBe(true);
    const lastReply = renderCardSet(view({ page: 8 }));
    const last = buttonsOf(lastReply);
    expect(last.map((button) => [button.disabled, parseCardSetCustomId(button.custom_id)])).toEqual([
      [false, { action: 'set-page', key: LOB.key, page: 7 }],
      [true, { action: 'set-page', key: LOB.key, page: 8 }],
    ]);
    const lastEmbed = only(lastReply.embeds);
    expect(lastEmbed.description!.split('\n')).toHaveLength(LOB_LISTING.length - 8 * SET_PAGE_SIZE);
    expect(lastEmbed.footer?.text).toBe(`Page 9 / 9 · cards 121–${LOB_LISTING.length} of ${LOB_LISTING.length} in the card database`);
    // A page past the end (the set shrank since) shows the last one.
    expect(renderCardSet(view({ page: 40 }))).toEqual(lastReply);
  });

  it('covers every card of the set exactly once across its pages', () => {
    const shown: string[] = [];
    for (let page = 0; page < 9; page++) shown.push(...selectOf(renderCardSet(view({ page }))).options.map((option) => option.value));
    expect(shown).toEqual(LOB_LISTING.map((listing) => String(listing.card.id)));
  });

  it('says plainly when a set has no release date, no image, no card count or no cards in the database', () => {
    const reply = renderCardSet({ set: UNDATED, listings: [], page: 0, image: null, sharedCodeWith: 0 });
    const embed = only(reply.embeds);
    expect(field(embed, 'TCG release')).toBe('No TCG release date listed');
    expect(field(embed, 'Cards')).toBe('Not listed');
    expect(embed.description).toBe('No card of this set is in the card database yet.');
    expect(embed.thumbnail).toBeUndefined();
    expect(embed.footer).toBeUndefined();
    expect(reply.files).toBeUndefined();
    expect(reply.components).toBeUndefined();
    expect(JSON.stringify(reply)).not.toMatch(BROKEN_VALUE);
  });

  it('shows a set with cards but without an image or date, and no pager for a single page', () => {
    const listings = LOB_LISTING.slice(0, 4);
    const reply = renderCardSet({ set: { ...UNDATED, cardCount: 4 }, listings, page: 0, image: IMAGE, sharedCodeWith: 0 });
    expect(only(reply.embeds).thumbnail).toBeUndefined();
    expect(reply.files).toBeUndefined();
    expect(buttonsOf(reply)).toEqual([]);
    expect(selectOf(reply).options).toHaveLength(4);
    expect(only(reply.embeds).footer?.text).toBe('Page 1 / 1 · cards 1–4 of 4 in the card database');
  });

  it('says when other sets share the code', () => {
    expect(field(only(renderCardSet(view({ sharedCodeWith: 1 })).embeds), 'Set code')).toBe('`LOB` (also used by 1 other set)');
    expect(field(only(renderCardSet(view({ sharedCodeWith: 3 })).embeds), 'Set code')).toBe('`LOB` (also used by 3 other sets)');
  });

  it('renders a release date at noon UTC, the same calendar day from UTC−11 to UTC+11', () => {
    expect(releaseDate('2002-03-08')).toBe(`<t:${Date.UTC(2002, 2, 8, 12) / 1000}:D>`);
  });

  it('escapes upstream text and keeps every limit with the longest values', () => {
    const long: CardSet = { key: cardSetKey('x'), name: `**${'W'.repeat(300)}** [x](https://evil.example)`, code: 'C`O'.repeat(10), cardCount: 9_999_999, tcgDate: '2099-12-31', imageStem: 'W'.repeat(40) };
    const longCard: Card = { ...BLUE_EYES, id: 1, name: `_${'N'.repeat(120)}_` };
    const listings: SetListing[] = Array.from({ length: 40 }, (_, index) => ({
      card: { ...longCard, id: index + 1 },
      numbers: Array.from({ length: 30 }, (__, number) => `\`${'X'.repeat(30)}-${number}`),
      rarities: Array.from({ length: 20 }, () => 'Quarter Century Secret Rare'),
    }));
    const reply = renderCardSet({ set: long, listings, page: 1, image: IMAGE, sharedCodeWith: 12 });
    expect(limitViolations(reply)).toEqual([]);
    const embed = only(reply.embeds);
    expect(embed.title).not.toContain('[x](');
    expect(embed.title!.startsWith('\\*\\*')).toBe(true);
    expect(embed.description).not.toMatch(/``/);
    expect(reply.files?.map((file) => file.name)).toEqual([`set-${'W'.repeat(40)}.jpg`]);
  });
});

describe('"Which set?" menu', () => {
  const sets = normaliseCardSets([
    { set_name: 'Legend of Blue Eyes White Dragon', set_code: 'LOB', num_of_cards: 126, tcg_date: '2002-03-08' },
    { set_name: 'Legend of Blue Eyes White Dragon (Reprint)', set_code: 'LOB', num_of_cards: 1 },
  ]).sets;

  it('offers the sets sharing a code, keyed by set key, ephemerally', () => {
    const reply = renderSetChoices('LOB', sets, 'LOB');
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toBe('2 card sets use the code `LOB`. Which one?');
    const menu = selectOf(reply);
    expect(menu.custom_id).toBe(SET_CHOICE_CUSTOM_ID);
    expect(menu.options).toEqual([
      { label: 'Legend of Blue Eyes White Dragon', value: sets[0]!.key, description: 'LOB · 2002-03-08 · 126 cards' },
      { label: 'Legend of Blue Eyes White Dragon (Reprint)', value: sets[1]!.key, description: 'LOB · no TCG release date · 1 card' },
    ]);
    expect(limitViolations(reply)).toEqual([]);
  });

  it('offers at most 25 close matches for an ambiguous name, or says nothing matches', () => {
    const many = normaliseCardSets(Array.from({ length: 40 }, (_, index) => ({ set_name: `Structure Deck ${index}`, set_code: `SD${index}` }))).sets;
    const reply = renderSetChoices('structure deck', many);
    expect(reply.content).toBe('No card set is named exactly “structure deck”. Did you mean one of these?');
    expect(selectOf(reply).options).toHaveLength(25);
    expect(renderSetChoices('zzz', [])).toEqual({ content: noSetMatchMessage('zzz'), ephemeral: true });
    expect(noSetMatchMessage('**@everyone**')).not.toMatch(/@everyone|\*\*@/);
  });
});

describe('printings', () => {
  const dates = ['2002-03-08', '2003-01-01', undefined];
  // Dated as the set list might date them, in the order the card service lists them: oldest first, undated last.
  const printings: PrintingView[] = BLUE_EYES.sets
    .map((printing, index): PrintingView => {
      const tcgDate = dates[index % dates.length];
      return tcgDate === undefined ? printing : { ...printing, tcgDate };
    })
    .sort((left, right) => (left.tcgDate ?? '9999').localeCompare(right.tcgDate ?? '9999'));

  it('puts a Printings button under a printed card, and none under a card never printed', () => {
    expect(buttonsOf(renderCard({ card: BLUE_EYES }))[0]).toEqual({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: `card:pr:${BLUE_EYES.id}`,
      label: 'Printings',
    });
    expect(buttonsOf(renderCard({ card: { ...BLUE_EYES, sets: [] } })).every((button) => 'url' in button)).toBe(true);
  });

  it('lists a card’s many printings a page at a time with set, number, rarity, price and year, only for the presser', () => {
    expect(printings.length).toBeGreaterThan(PRINTINGS_PAGE_SIZE * 4);
    const reply = renderPrintings({ card: BLUE_EYES, printings, page: 0 });
    expect(reply.ephemeral).toBe(true);
    const embed = only(reply.embeds);
    expect(embed).toMatchSnapshot();
    expect(embed.title).toBe('Printings of Blue-Eyes White Dragon');
    const lines = embed.description!.split('\n');
    expect(lines).toHaveLength(PRINTINGS_PAGE_SIZE);
    const first = printings[0]!;
    expect(lines[0]).toBe(
      `\`${first.setCode}\` **${first.setName}** (2002) · ${first.rarity} (${first.rarityCode})${first.price === undefined ? '' : ` · $${first.price.toFixed(2)}`}`,
    );
    const pages = Math.ceil(printings.length / PRINTINGS_PAGE_SIZE);
    expect(embed.footer?.text).toBe(`Page 1 / ${pages} · printings 1–15 of ${printings.length} · oldest TCG release first · prices in USD`);
    expect(buttonsOf(reply).map((button) => [button.label, button.disabled, parseCardCustomId(button.custom_id)])).toEqual([
      ['◀', true, { action: 'printings', cardId: BLUE_EYES.id, page: 0 }],
      ['▶', false, { action: 'printings', cardId: BLUE_EYES.id, page: 1 }],
    ]);
    expect(limitViolations(reply)).toEqual([]);

    const last = renderPrintings({ card: BLUE_EYES, printings, page: pages - 1 });
    expect(only(last.embeds).description!.split('\n')).toHaveLength(printings.length - (pages - 1) * PRINTINGS_PAGE_SIZE);
    expect(buttonsOf(last).map((button) => button.disabled)).toEqual([false, true]);
  });

  it('shows a price only when known and a year only when the set list knows the date', () => {
    const [line] = only(renderPrintings({ card: DARK_MAGICIAN, printings: [{ setName: 'Promo', setCode: 'PRM-1', rarity: 'Secret Rare', rarityCode: '' }], page: 0 }).embeds)
      .description!.split('\n');
    expect(line).toBe('`PRM-1` **Promo** · Secret Rare');
  });

  it('keeps every limit with the longest printings upstream could send', () => {
    const long: PrintingView = { setName: `*${'S'.repeat(300)}*`, setCode: '`'.repeat(50), rarity: 'R'.repeat(200), rarityCode: 'C'.repeat(50), price: 9_999_999.99, tcgDate: '2099-12-31' };
    const reply = renderPrintings({ card: { ...BLUE_EYES, name: 'N'.repeat(300) }, printings: Array.from({ length: 100 }, () => long), page: 3 });
    expect(limitViolations(reply)).toEqual([]);
    expect(only(reply.embeds).title!.length).toBeLessThanOrEqual(EMBED_LIMITS.title);
  });

  it('says so when there is no printing at all', () => {
    expect(renderPrintings({ card: DARK_MAGICIAN, printings: [], page: 0 })).toEqual({ content: 'No printings are listed for Dark Magician.', ephemeral: true });
  });
});
