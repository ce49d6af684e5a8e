import { ComponentType, type APIStringSelectComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { Card, LocalizedCard } from '../../src/cards/card.js';
import type { Reply } from '../../src/interaction/reply.js';
import { banlistLine, cardImageName, masterDuelLine, priceLine, renderCard, renderCardEmbed, statLine } from '../../src/render/card.js';
import { frameColour, frameColourOf } from '../../src/render/card-labels.js';
import { noMatchMessage, renderDidYouMean, renderSearchResults } from '../../src/render/card-menus.js';
import { openMenuCustomId, parseCardCustomId } from '../../src/cards/custom-ids.js';
import { SELECT_LIMITS } from '../../src/render/format.js';
import { EMBED_LIMITS, embedCharacterCount } from '../../src/render/format.js';
import { normalisedDumpCards } from '../helpers/card-dump.js';
import { CATALOGUES } from '../../src/i18n/messages.js';
import { field, only } from '../helpers/components.js';

const cards = await normalisedDumpCards();
const byId = new Map(cards.map((card) => [card.id, card]));

function card(id: number): Card {
  const found = byId.get(id);
  if (!found) throw new Error(`card ${id} is not in the dump`);
  return found;
}

const DARK_MAGICIAN = 46986414;
const A_BAO_A_QU = 4731783; // Link 4, def null upstream
const COMIC_RELIEF = 15308295; // Pendulum with both boxes
const AEGAION = 10678778; // Xyz, ATK ?
const LOST_GUARDIAN = 45871897; // DEF ?
const NEKOMATA = 5506791; // Pendulum without box markers
const CELL_BREEDING_DEVICE = 34541863; // Continuous Spell
const MALISS_TRAP = 20726052; // Trap with race ""
const ANCIENT_GEAR_TOKEN = 44052075;
const ANCIENT_FUSION = 300302022; // Skill, character name cut by upstream
const BELIEVE_IN_YOUR_BRO = 300302044; // Skill with race ""
const ABYSS_DWELLER = 21044178; // Forbidden in TCG and OCG

const IMAGE = { format: 'jpg' as const, data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) };

function selectOf(reply: Reply): APIStringSelectComponent {
  const row = only(reply.components);
  const component = only(row.components);
  expect(component.type).toBe(ComponentType.StringSelect);
  return component as APIStringSelectComponent;
}

/** Every Discord limit an embed message and its menus must keep; returns what is broken. */
function limitViolations(reply: Reply): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const within = (text: string | undefined, max: number, what: string, required = false) =>
    check((text === undefined ? !required : text.length > 0 || !required) && (text?.length ?? 0) <= max, `${what}: ${text?.length ?? 'missing'} characters`);
  const embeds = reply.embeds ?? [];
  check(embeds.length <= EMBED_LIMITS.embedsPerMessage, 'too many embeds');
  const total = embeds.reduce((sum, embed) => sum + embedCharacterCount(embed as never), 0);
  check(total <= EMBED_LIMITS.total, `embeds total ${total} characters`);
  for (const embed of embeds) {
    within(embed.title, EMBED_LIMITS.title, 'title');
    within(embed.description, EMBED_LIMITS.description, 'description');
    within(embed.footer?.text, EMBED_LIMITS.footer, 'footer');
    check((embed.fields?.length ?? 0) <= EMBED_LIMITS.fields, 'too many fields');
    for (const entry of embed.fields ?? []) {
      within(entry.name, EMBED_LIMITS.fieldName, 'field name', true);
      within(entry.value, EMBED_LIMITS.fieldValue, `field ${entry.name}`, true);
    }
  }
  within(reply.content, EMBED_LIMITS.content, 'content');
  for (const row of reply.components ?? []) {
    for (const component of row.components) {
      if (component.type !== ComponentType.StringSelect) continue;
      within(component.custom_id, SELECT_LIMITS.customId, 'custom_id', true);
      check(component.options.length > 0 && component.options.length <= SELECT_LIMITS.options, `${component.options.length} options`);
      check(new Set(component.options.map((option) => option.value)).size === component.options.length, 'duplicate option values');
      for (const option of component.options) {
        within(option.label, SELECT_LIMITS.label, 'option label', true);
        within(option.value, SELECT_LIMITS.value, 'option value', true);
        within(option.description, SELECT_LIMITS.description, 'option description');
      }
    }
  }
  return problems;
}

function expectWithinDiscordLimits(reply: Reply): void {
  expect(limitViolations(reply)).toEqual([]);
}

const BROKEN_VALUE = /\bnull\b|\bundefined\b|\bNaN\b|\[object Object\]/;

/** A card whose every text is as long as the tests want, built on a real one. */
function withText(base: Card, text: string, extra: Partial<Card> = {}): Card {
  return { ...base, description: { text }, ...extra };
}

describe('card embed', () => {
  it('renders a Normal monster with its type line, stats, price, printings and attached art', () => {
    const reply = renderCard({ card: card(DARK_MAGICIAN), image: IMAGE });
    const embed = only(reply.embeds);
    expect(embed).toMatchSnapshot();
    expect(embed.title).toBe('Dark Magician');
    expect(embed.url).toMatch(/^https:\/\/ygoprodeck\.com\/card\//);
    expect(embed.color).toBe(frameColour('normal'));
    expect(embed.description).toMatch(/^\*\*Spellcaster \/ Normal\*\*\nDARK · Level 7 · ATK 2500 \/ DEF 2100\n\n/);
    expect(embed.image).toEqual({ url: 'attachment://card-46986414.jpg' });
    expect(reply.files?.map((file) => file.name)).toEqual(['card-46986414.jpg']);
    expect(field(embed, 'Price')).toBe('$0.27 on TCGplayer · €0.02 on Cardmarket');
    expect(field(embed, 'Ban list')).toBeUndefined();
    expect(embed.footer?.text).toBe('Passcode 46986414');
  });

  it('shows a Link monster’s rating and arrows in reading order, and no DEF', () => {
    const embed = renderCardEmbed(card(A_BAO_A_QU));
    expect(embed).toMatchSnapshot();
    expect(statLine(card(A_BAO_A_QU))).toBe('DARK · Link 4 ← → ↙ ↘ · ATK 2800');
    expect(embed.description).not.toMatch(/DEF|Level/);
    expect(embed.color).toBe(frameColour('link'));
  });

  it('separates the Pendulum Effect from the Monster Effect and shows the scale', () => {
    const embed = renderCardEmbed(card(COMIC_RELIEF));
    expect(embed).toMatchSnapshot();
    expect(embed.description).toContain('DARK · Level 3 · Scale 8 · ATK 1000 / DEF 2000');
    const pendulumAt = embed.description!.indexOf('**Pendulum Effect**\n');
    const monsterAt = embed.description!.indexOf('**Monster Effect**\n');
    expect(pendulumAt).toBeGreaterThan(0);
    expect(monsterAt).toBeGreaterThan(pendulumAt);
    expect(embed.description).not.toContain('[ Pendulum Effect ]');
    expect(frameColourOf(card(COMIC_RELIEF).frameType)).toBe('pendulum');
  });

  it('shows a Pendulum monster without box markers as one monster text', () => {
    const embed = renderCardEmbed(card(NEKOMATA));
    expect(embed.description).toContain('Scale 2');
    expect(embed.description).not.toContain('**Pendulum Effect**');
    expect(embed.description).toContain('**Monster Effect**');
  });

  it('writes "?" for an unknown ATK or DEF and shows an Xyz monster’s rank', () => {
    expect(statLine(card(AEGAION))).toBe('WATER · Rank 8 · ATK ? / DEF 3000');
    expect(statLine(card(LOST_GUARDIAN))).toBe('EARTH · Level 4 · ATK 100 / DEF ?');
    const embed = renderCardEmbed(card(AEGAION));
    expect(embed).toMatchSnapshot();
    expect(embed.color).toBe(frameColour('xyz'));
    expect(embed.color).not.toBe(0);
  });

  it.each([
    ['a Continuous Spell', CELL_BREEDING_DEVICE, 'Continuous Spell', 'spell'],
    ['a Trap with no race', MALISS_TRAP, 'Trap', 'trap'],
    ['a Token', ANCIENT_GEAR_TOKEN, 'Machine / Token', 'token'],
    ['a Skill', ANCIENT_FUSION, 'Skill / Dr. Vellian C', 'skill'],
    ['a Skill with no character', BELIEVE_IN_YOUR_BRO, 'Skill', 'skill'],
  ] as const)('renders %s with its type line and no monster stats', (_label, id, typeLine, frame) => {
    const embed = renderCardEmbed(card(id));
    expect(embed).toMatchSnapshot();
    // The type line is followed directly by the text: no stat line.
    expect(statLine(card(id))).toBe('');
    expect(embed.description!.startsWith(`**${typeLine}**\n\n`)).toBe(true);
    expect(embed.color).toBe(frameColour(frame));
    expect(JSON.stringify(embed)).not.toMatch(BROKEN_VALUE);
  });

  it('lists ban-list status per format only for restricted cards', () => {
    expect(banlistLine(card(ABYSS_DWELLER))).toBe('TCG Forbidden · OCG Forbidden');
    expect(field(renderCardEmbed(card(ABYSS_DWELLER)), 'Ban list')).toBe('TCG Forbidden · OCG Forbidden');
    const goatOnly = { ...card(DARK_MAGICIAN), banlist: { goat: 'Limited' as const, tcg: 'Semi-Limited' as const } };
    expect(banlistLine(goatOnly)).toBe('TCG Semi-Limited · GOAT Limited');
  });

  it('shows Master Duel status and rarity, and the formats with the filterable ones first', () => {
    const inMasterDuel = { ...card(DARK_MAGICIAN), formats: ['Common Charity', 'OCG', 'Master Duel', 'TCG'], mdRarity: 'Ultra Rare' };
    expect(masterDuelLine(inMasterDuel)).toBe('Unlimited · Ultra Rare');
    expect(masterDuelLine({ ...inMasterDuel, banlist: { masterduel: 'Semi-Limited' } }, CATALOGUES.fr)).toBe('Semi-Limitée · Ultra Rare');
    expect(masterDuelLine({ ...card(DARK_MAGICIAN), formats: ['TCG'] })).toBeNull();
    const embed = renderCardEmbed({ ...inMasterDuel, banlist: { masterduel: 'Forbidden' } });
    expect(field(embed, 'Master Duel')).toBe('Forbidden · Ultra Rare');
    expect(field(embed, 'Ban list')).toBeUndefined();
    expect(field(embed, 'Formats')).toBe('TCG · OCG · Master Duel · Common Charity');
    expect(field(renderCardEmbed(card(DARK_MAGICIAN)), 'Formats')).toBeUndefined();
  });

  it('shows a card’s Genesys points when it is in the pool, 0 included, and nothing for a card outside it', () => {
    expect(field(renderCardEmbed(card(DARK_MAGICIAN), { genesysPoints: 0 }), 'Genesys')).toBe('0 points');
    expect(field(renderCardEmbed(card(DARK_MAGICIAN), { genesysPoints: 1500, messages: CATALOGUES.de }), 'Genesys')).toBe('1.500 Punkte');
    expect(field(renderCard({ card: card(DARK_MAGICIAN), genesysPoints: 30 }).embeds![0]!, 'Genesys')).toBe('30 points');
    expect(field(renderCardEmbed(card(DARK_MAGICIAN)), 'Genesys')).toBeUndefined();
  });

  it('links YGOPRODeck, Yugipedia (by English name, encoded), Konami’s database in the reader’s language and the OCG rulings', () => {
    const hash = { ...card(DARK_MAGICIAN), name: 'Crawling Dragon #2', konamiId: 4321 };
    const buttons = (reply: Reply) => reply.components!.flatMap((row) => row.components) as { label?: string; url?: string; custom_id?: string }[];
    const english = buttons(renderCard({ card: hash }));
    expect(english.map((button) => button.label)).toEqual(['Printings', 'YGOPRODeck', 'Yugipedia', 'Konami database', 'OCG rulings (in Japanese)']);
    expect(english[2]!.url).toBe('https://yugipedia.com/wiki/Crawling_Dragon_%232');
    expect(english[3]!.url).toBe('https://www.db.yugioh-card.com/yugiohdb/card_search.action?ope=2&cid=4321&request_locale=en');
    const translated: LocalizedCard = { ...hash, name: 'Dragon Rampant n°2', language: 'pt', englishName: 'D/D: "Ark" & Co?' };
    const portuguese = buttons(renderCard({ card: translated, messages: CATALOGUES['pt-BR'] }));
    expect(portuguese[2]!.url).toBe('https://yugipedia.com/wiki/D/D:_%22Ark%22_%26_Co%3F');
    expect(portuguese[3]).toMatchObject({ label: 'Banco de dados da Konami', url: expect.stringMatching(/&request_locale=pt$/) });
    // The Q&A is in Japanese only: the same Japanese page whatever the reader's language.
    expect(english[4]!.url).toBe('https://www.db.yugioh-card.com/yugiohdb/faq_search.action?ope=4&cid=4321&request_locale=ja');
    expect(portuguese[4]).toEqual({ type: 2, style: 5, label: 'Rulings OCG (em japonês)', url: 'https://www.db.yugioh-card.com/yugiohdb/faq_search.action?ope=4&cid=4321&request_locale=ja' });
    // Discord allows five buttons to a row: a printed card with a Konami id fills exactly one.
    expect(renderCard({ card: hash }).components).toHaveLength(1);
    const unknownKonami = buttons(renderCard({ card: { ...card(DARK_MAGICIAN), sets: [] } }));
    expect(unknownKonami.map((button) => button.label)).toEqual(['YGOPRODeck', 'Yugipedia']);
    expect(JSON.stringify(unknownKonami)).not.toContain('faq_search');
  });

  it('prices: the cheapest dollar price, Cardmarket in euros, nothing when no source knows', () => {
    expect(priceLine({ ...card(DARK_MAGICIAN), prices: { ebay: 0.05, tcgplayer: 0.27, cardmarket: 0.01 } })).toBe('$0.05 on eBay · €0.01 on Cardmarket');
    expect(priceLine({ ...card(DARK_MAGICIAN), prices: { cardmarket: 1234.5 } })).toBe('€1,234.50 on Cardmarket');
    const priceless = renderCardEmbed({ ...card(DARK_MAGICIAN), prices: {} });
    expect(field(priceless, 'Price')).toBeUndefined();
  });

  it('counts printings, and says so when a card has none', () => {
    expect(field(renderCardEmbed(card(DARK_MAGICIAN)), 'Printings')).toBe(`${card(DARK_MAGICIAN).sets.length} printings`);
    expect(field(renderCardEmbed({ ...card(DARK_MAGICIAN), sets: [] }), 'Printings')).toBe('None listed');
  });

  it('renders without image and attachment when the image store had none', () => {
    const reply = renderCard({ card: card(DARK_MAGICIAN), image: null });
    expect(only(reply.embeds).image).toBeUndefined();
    expect(reply.files).toBeUndefined();
  });

  it('names a PNG attachment by its format', () => {
    const reply = renderCard({ card: card(DARK_MAGICIAN), image: { format: 'png', data: Buffer.from('x') } });
    expect(reply.files?.[0]?.name).toBe('card-46986414.png');
    expect(only(reply.embeds).image?.url).toBe('attachment://card-46986414.png');
    expect(cardImageName(483)).toBe('card-483.jpg');
  });

  it('shows a translated card with its language and English name in the footer', () => {
    const french: LocalizedCard = {
      ...card(DARK_MAGICIAN),
      name: 'Magicien Sombre',
      description: { text: "''Le magicien ultime en termes d'attaque et de défense.''" },
      language: 'fr',
      englishName: 'Dark Magician',
    };
    const embed = renderCardEmbed(french);
    expect(embed.title).toBe('Magicien Sombre');
    expect(embed.description).toContain('Le magicien ultime');
    expect(embed.footer?.text).toBe('Français · English name: Dark Magician · Passcode 46986414');
  });

  it('says when a translation was asked for but the card is shown in English', () => {
    const embed = renderCardEmbed(card(DARK_MAGICIAN), { translationUnavailable: 'de' });
    expect(embed.footer?.text).toBe('No Deutsch text available right now; shown in English · Passcode 46986414');
  });

  it('zero-pads short passcodes in the footer', () => {
    expect(renderCardEmbed({ ...card(DARK_MAGICIAN), id: 483 }).footer?.text).toBe('Passcode 00000483');
  });

  it('escapes formatting, lists and masked links in upstream text', () => {
    const embed = renderCardEmbed(withText(card(DARK_MAGICIAN), '*not bold* __x__ [click](https://evil.example)\n- not a list\n# not a heading'));
    expect(embed.description).toContain('\\*not bold\\*');
    expect(embed.description).toContain('\\_\\_x\\_\\_');
    expect(embed.description).toContain('\\[click](https:\u200b//evil.example)');
    expect(embed.description).toContain('\\- not a list');
    expect(embed.description).toContain('\\# not a heading');
  });

  it('cuts a text too long for the embed cleanly and links to the full text', () => {
    const long = withText(card(DARK_MAGICIAN), `${'Draw 1 card. '.repeat(600)}The end.`);
    const reply = renderCard({ card: long, image: IMAGE });
    expectWithinDiscordLimits(reply);
    const description = only(reply.embeds).description!;
    expect(description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
    // Cut at a word boundary, then the link on its own line.
    expect(description).toMatch(/ Draw…\n\[Full text on YGOPRODeck\]\(https:\/\/ygoprodeck\.com\/card\/dark-magician-4003\)$/);
    expect(description).not.toContain('The end.');
  });

  it('shortens the longer Pendulum box first and keeps both headings', () => {
    const long: Card = {
      ...card(COMIC_RELIEF),
      description: { text: 'x', pendulumEffect: 'Short pendulum effect.', monsterEffect: 'Long monster effect. '.repeat(400) },
    };
    const description = renderCardEmbed(long).description!;
    expect(description).toContain('**Pendulum Effect**\nShort pendulum effect.\n\n**Monster Effect**\nLong monster effect.');
    expect(description).toContain('[Full text on YGOPRODeck]');
    expect(description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
  });

  it('never leaves a dangling escape before the ellipsis', () => {
    for (let shift = 0; shift < 8; shift++) {
      const text = `${'a'.repeat(4000 + shift)}${'*'.repeat(200)}`;
      const description = renderCardEmbed(withText(card(DARK_MAGICIAN), text, { ygoprodeckUrl: undefined })).description!;
      expect(description).toMatch(/[^\\](\\\\)*…$|\\\*…$/);
      expect(description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
    }
  });

  // Seconds of CPU on a quiet machine: the timeout leaves room for a busy one (`npm run test:busy`).
  it('renders every card of the real dump within every Discord limit, with no null, undefined or NaN', { timeout: 120_000 }, () => {
    let longest = 0;
    for (const each of cards) {
      const reply = renderCard({ card: each, image: IMAGE });
      const embed = reply.embeds![0]!;
      const text = JSON.stringify(embed);
      const problems = limitViolations(reply);
      if (BROKEN_VALUE.test(text)) problems.push(`renders ${text.match(BROKEN_VALUE)![0]}`);
      if (text.includes('images.ygoprodeck.com')) problems.push('links images.ygoprodeck.com');
      if (embed.image?.url !== `attachment://card-${each.id}.jpg`) problems.push('no attached image');
      if (problems.length > 0) throw new Error(`card ${each.id} (${each.name}): ${problems.join('; ')}\n${text}`);
      longest = Math.max(longest, embedCharacterCount(embed as never));
    }
    expect(cards.length).toBe(13_703);
    expect(longest).toBeGreaterThan(1_000);
  });

  it('keeps the limits when every field of a card is as long as upstream could make it', () => {
    const huge: LocalizedCard = {
      ...card(COMIC_RELIEF),
      name: 'N'.repeat(300),
      typeLine: 'T'.repeat(300),
      archetype: 'A'.repeat(2000),
      description: { text: 'x', pendulumEffect: 'P '.repeat(3000), monsterEffect: 'M '.repeat(3000) },
      language: 'pt',
      englishName: 'E'.repeat(3000),
      banlist: { tcg: 'Forbidden', ocg: 'Limited', goat: 'Semi-Limited', masterduel: 'Limited' },
      formats: Array.from({ length: 40 }, (_, index) => `Format ${index} ${'F'.repeat(50)}`),
      mdRarity: 'R'.repeat(500),
      konamiId: 99_999_999,
    };
    const reply = renderCard({ card: huge, image: IMAGE });
    expectWithinDiscordLimits(reply);
  });
});

describe('card menus', () => {
  it('offers up to 25 candidates in an ephemeral "Did you mean" menu keyed by passcode', () => {
    const candidates = cards.filter((each) => each.name.includes('Magician')).slice(0, 30);
    const reply = renderDidYouMean('magican', candidates);
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toBe('No card is named exactly “magican”. Did you mean one of these?');
    const menu = selectOf(reply);
    expect(menu.custom_id).toBe('card:open');
    expect(menu.options).toHaveLength(25);
    expect(menu.options[0]).toEqual({ label: candidates[0]!.name, value: String(candidates[0]!.id), description: candidates[0]!.typeLine });
    expectWithinDiscordLimits(reply);
  });

  it('falls back to the no-match sentence when there is no candidate at all', () => {
    expect(renderDidYouMean('zzzz', [])).toEqual({ content: noMatchMessage('zzzz'), ephemeral: true });
    expect(noMatchMessage('zzzz')).toBe('No card matches “zzzz”. Check the spelling, or try `/card search`.');
  });

  it('neutralises markdown and mentions in the echoed query', () => {
    const message = noMatchMessage('**@everyone** `x`\n<@123>');
    expect(message).toContain('\\*\\*@\u200beveryone\\*\\*');
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(/@everyone|<@123>/);
  });

  it('keeps the requested language in the custom_id so a pick opens in it', () => {
    expect(openMenuCustomId('fr')).toBe('card:open:fr');
    expect(selectOf(renderDidYouMean('x', [card(DARK_MAGICIAN)], 'fr')).custom_id).toBe('card:open:fr');
    expect(parseCardCustomId('card:open:fr')).toEqual({ action: 'open', language: 'fr' });
    expect(parseCardCustomId('card:open')).toEqual({ action: 'open' });
    for (const junk of ['card:open:xx', 'card:close', 'card:open:fr:extra', 'wallpaper:open', 'card']) expect(parseCardCustomId(junk)).toBeNull();
  });

  it('lists search results compactly with a menu, filters and the count in the footer', () => {
    const spells = cards.filter((each) => each.kind === 'spell' && each.name.includes('Dragon'));
    const reply = renderSearchResults({ query: 'dragon', filters: ['Spell'], cards: spells, total: spells.length });
    const embed = only(reply.embeds);
    expect(embed).toMatchObject({ title: 'Cards matching “dragon”' });
    expect(embed.description!.split('\n')).toHaveLength(25);
    expect(embed.description!.split('\n')[0]).toBe(`1. **${spells[0]!.name}** · ${spells[0]!.typeLine}`);
    expect(embed.footer?.text).toBe(`25 best of ${spells.length} matches (Spell)`);
    expect(selectOf(reply).options.map((option) => option.value)).toEqual(spells.slice(0, 25).map((each) => String(each.id)));
    expect(reply.ephemeral).toBe(true);
    expectWithinDiscordLimits(reply);
  });

  it('shows monster stats in search lines and a plain count when everything fits', () => {
    const reply = renderSearchResults({ query: 'dark magician', filters: [], cards: [card(DARK_MAGICIAN)], total: 1 });
    const embed = only(reply.embeds);
    expect(embed).toMatchSnapshot();
    expect(embed.description).toBe('1. **Dark Magician** · Spellcaster / Normal · DARK · Level 7 · ATK 2500 / DEF 2100');
    expect(embed.footer?.text).toBe('1 match');
  });

  it('keeps the limits with 25 of the longest names and a hostile query', () => {
    const longNames = [...cards].sort((a, b) => b.name.length - a.name.length).slice(0, 25);
    const reply = renderSearchResults({ query: `${'`@here* '.repeat(100)}`, filters: ['Monster', 'DARK', `Archetype: ${'x'.repeat(300)}`], cards: longNames, total: 9_999 });
    expectWithinDiscordLimits(reply);
    expect(JSON.stringify(reply)).not.toContain('@here');
  });
});
