import { z } from 'zod';
import { BANLIST_FORMATS, PRICE_SOURCES, LINK_MARKERS, type CardKind, type BanStatus, type CardLanguage, type LinkMarker, type StatValue, type CardText, type CardPrinting, type Card, type LocalizedCard } from './card.js';

/**
 * Raw YGOPRODeck card JSON validated and normalised into `Card`s, quirk by quirk (see upstreams.md
 * §3.3): a card that fails validation is left out with the reason, never half-kept.
 */

const optionalText = z.string().nullish();
/** Upstream sends stats as numbers, `null` on Link monsters, or leaves them out. */
const optionalStat = z.number().int().nullish();
/** Prices are strings (`"0"`, `"0.00"`, `"62.15"`, legacy `"$1.55"`); tolerate numbers too. */
const priceValue = z.union([z.string(), z.number()]).nullish();

const rawPrintingSchema = z.object({
  set_name: z.string(),
  set_code: z.string(),
  set_rarity: z.string().nullish(),
  set_rarity_code: z.string().nullish(),
  set_price: priceValue,
});

const rawMiscSchema = z.object({
  beta_name: optionalText,
  views: z.number().nullish(),
  formats: z.array(z.string()).nullish(),
  tcg_date: optionalText,
  ocg_date: optionalText,
  konami_id: z.number().int().nullish(),
  md_rarity: optionalText,
  treated_as: optionalText,
});

const rawCardSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().trim().min(1),
  type: z.string().min(1),
  humanReadableCardType: optionalText,
  frameType: z.string().min(1),
  desc: z.string(),
  race: optionalText,
  typeline: z.array(z.string()).nullish(),
  atk: optionalStat,
  def: optionalStat,
  level: optionalStat,
  attribute: optionalText,
  linkval: optionalStat,
  linkmarkers: z.array(z.string()).nullish(),
  scale: optionalStat,
  pend_desc: optionalText,
  monster_desc: optionalText,
  archetype: optionalText,
  ygoprodeck_url: optionalText,
  card_sets: z.array(rawPrintingSchema).nullish(),
  card_images: z.array(z.object({ id: z.number().int().positive() })).nullish(),
  card_prices: z.array(z.record(z.string(), priceValue)).nullish(),
  banlist_info: z.record(z.string(), z.string()).nullish(),
  misc_info: z.array(rawMiscSchema).nullish(),
  /** Only on `language=` responses: the English name. */
  name_en: optionalText,
});

/** A card object as `cardinfo.php` returns it (the fields the bot reads; upstream sends more). */
export type RawCard = z.input<typeof rawCardSchema>;
type ParsedRawCard = z.output<typeof rawCardSchema>;

// --- Normalisation -------------------------------------------------------------------------------

type CardNormalisation = { ok: true; card: Card } | { ok: false; problem: string };

/** Validates and normalises one raw card; a card that does not fit is reported, never thrown. */
export function normaliseCard(raw: unknown): CardNormalisation {
  const parsed = rawCardSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const id = typeof raw === 'object' && raw !== null && 'id' in raw ? String((raw as { id: unknown }).id) : '?';
    return { ok: false, problem: `card ${id}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}` };
  }
  return { ok: true, card: toCard(parsed.data) };
}

export interface CardListNormalisation {
  cards: Card[];
  /** Cards that failed validation and were left out. */
  skipped: number;
  /** The first few reasons, for a log line. */
  problems: string[];
}

/** Normalises a list of raw cards, skipping (and counting) the ones that fail validation. */
export function normaliseCards(raws: readonly unknown[]): CardListNormalisation {
  const cards: Card[] = [];
  const problems: string[] = [];
  let skipped = 0;
  for (const raw of raws) {
    const result = normaliseCard(raw);
    if (result.ok) cards.push(result.card);
    else {
      skipped++;
      if (problems.length < 5) problems.push(result.problem);
    }
  }
  return { cards, skipped, problems };
}

/** Normalises a `language=` response card; its `name_en` is required, as it is what ties it to the English card. */
export function normaliseLocalizedCard(raw: unknown, language: CardLanguage): LocalizedCard | null {
  const result = normaliseCard(raw);
  if (!result.ok) return null;
  const englishName = (raw as { name_en?: unknown }).name_en;
  return {
    ...result.card,
    language,
    englishName: typeof englishName === 'string' && englishName.trim() !== '' ? englishName.trim() : result.card.name,
  };
}

function toCard(raw: ParsedRawCard): Card {
  const kind = cardKind(raw.frameType);
  const isLink = raw.frameType === 'link';
  const isXyz = raw.frameType.startsWith('xyz');
  const race = nonEmpty(raw.race);
  const misc = raw.misc_info?.[0];
  const views = misc?.views;
  const card: Card = {
    id: raw.id,
    name: raw.name.trim(),
    kind,
    frameType: raw.frameType,
    typeLine: typeLine(raw, kind, race),
    humanReadableType: nonEmpty(raw.humanReadableCardType) ?? raw.type,
    description: cardText(raw),
    banlist: banlist(raw.banlist_info),
    prices: prices(raw.card_prices?.[0]),
    sets: (raw.card_sets ?? []).map(printing),
    imageIds: imageIds(raw),
    altNames: altNames(misc?.beta_name, raw.name),
    views: isNonNegative(views) ? Math.round(views) : 0,
    formats: [...new Set((misc?.formats ?? []).map((format) => format.trim()).filter((format) => format !== ''))],
  };
  if (race !== undefined) card.race = race;
  if (kind === 'monster') {
    const attribute = nonEmpty(raw.attribute);
    if (attribute !== undefined) card.attribute = attribute.toUpperCase();
    // Link monsters carry `level: null` or `0`; an Xyz monster's "level" is its rank.
    if (!isLink && isNonNegative(raw.level)) {
      if (isXyz) card.rank = raw.level;
      else card.level = raw.level;
    }
    if (isLink) {
      if (isNonNegative(raw.linkval)) card.linkRating = raw.linkval;
      const markers = (raw.linkmarkers ?? []).filter(isLinkMarker);
      if (markers.length > 0) card.linkMarkers = markers;
    }
    if (raw.frameType.endsWith('_pendulum') && isNonNegative(raw.scale)) card.scale = raw.scale;
    const atk = statValue(raw.atk);
    if (atk !== undefined) card.atk = atk;
    const def = isLink ? undefined : statValue(raw.def);
    if (def !== undefined) card.def = def;
  }
  const archetype = nonEmpty(raw.archetype);
  if (archetype !== undefined) card.archetype = archetype;
  const url = ygoprodeckUrl(raw.ygoprodeck_url);
  if (url !== undefined) card.ygoprodeckUrl = url;
  const konamiId = misc?.konami_id;
  if (isNonNegative(konamiId) && konamiId > 0) card.konamiId = konamiId;
  const mdRarity = nonEmpty(misc?.md_rarity);
  if (mdRarity !== undefined) card.mdRarity = mdRarity;
  const treatedAs = nonEmpty(misc?.treated_as);
  if (treatedAs !== undefined && treatedAs.toLowerCase() !== card.name.toLowerCase()) card.treatedAs = treatedAs;
  const tcgDate = isoDate(misc?.tcg_date);
  if (tcgDate !== undefined) card.tcgDate = tcgDate;
  const ocgDate = isoDate(misc?.ocg_date);
  if (ocgDate !== undefined) card.ocgDate = ocgDate;
  return card;
}

function cardKind(frameType: string): CardKind {
  switch (frameType) {
    case 'spell':
    case 'trap':
    case 'token':
    case 'skill':
      return frameType;
    default:
      return 'monster';
  }
}

/**
 * The order of the parts of a monster's type line, as YGOPRODeck's own `typeline` has them
 * (checked against every monster of the full dump): summoning type, Pendulum, ability, Tuner,
 * then Normal/Effect.
 */
const TYPE_PART_RANK: Readonly<Record<string, number>> = {
  Fusion: 0,
  Synchro: 0,
  Xyz: 0,
  Link: 0,
  Ritual: 0,
  Pendulum: 1,
  Flip: 2,
  Gemini: 2,
  Spirit: 2,
  Toon: 2,
  Union: 2,
  Tuner: 3,
  Normal: 4,
  Effect: 4,
};

function typeLine(raw: ParsedRawCard, kind: CardKind, race: string | undefined): string {
  switch (kind) {
    case 'spell':
    case 'trap': {
      const label = kind === 'spell' ? 'Spell' : 'Trap';
      return race === undefined ? label : `${race} ${label}`;
    }
    case 'token':
      return race === undefined ? 'Token' : `${race} / Token`;
    case 'skill':
      return race === undefined ? 'Skill' : `Skill / ${race}`;
    case 'monster': {
      const parts = raw.typeline?.map((part) => part.trim()).filter((part) => part !== '');
      if (parts !== undefined && parts.length > 0) return parts.join(' / ');
      return [race, ...derivedTypeParts(nonEmpty(raw.humanReadableCardType) ?? raw.type)]
        .filter((part) => part !== undefined)
        .join(' / ');
    }
  }
}

/** Older responses have no `typeline`: rebuild it from e.g. "Synchro Tuner Effect Monster". */
function derivedTypeParts(type: string): string[] {
  return type
    .split(/\s+/)
    .map((word) => (word.toUpperCase() === 'XYZ' ? 'Xyz' : word))
    .filter((word) => word in TYPE_PART_RANK)
    .sort((left, right) => TYPE_PART_RANK[left]! - TYPE_PART_RANK[right]!);
}

/** Pendulum texts look like `[ Pendulum Effect ] \n…\n\n[ Monster Effect ] \n…`. */
const PENDULUM_TEXT = /^\s*\[\s*Pendulum Effect\s*\]\s*([\s\S]*?)\s*\[\s*Monster Effect\s*\]\s*([\s\S]*?)\s*$/;

function cardText(raw: ParsedRawCard): CardText {
  const text = cleanText(raw.desc);
  if (!raw.frameType.endsWith('_pendulum')) return { text };
  let pendulumEffect = raw.pend_desc === null || raw.pend_desc === undefined ? undefined : cleanText(raw.pend_desc);
  let monsterEffect = raw.monster_desc === null || raw.monster_desc === undefined ? undefined : cleanText(raw.monster_desc);
  if (pendulumEffect === undefined && monsterEffect === undefined) {
    const match = PENDULUM_TEXT.exec(text);
    // A few Pendulum cards (e.g. the Majespecters) have no Pendulum Effect and no markers.
    pendulumEffect = match ? match[1] : undefined;
    monsterEffect = match ? match[2] : text;
  }
  const result: CardText = { text };
  if (pendulumEffect) result.pendulumEffect = pendulumEffect;
  if (monsterEffect) result.monsterEffect = monsterEffect;
  return result;
}

function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

const BAN_STATUS: Readonly<Record<string, BanStatus>> = {
  forbidden: 'Forbidden',
  banned: 'Forbidden',
  limited: 'Limited',
  'semi-limited': 'Semi-Limited',
};

function banlist(info: Record<string, string> | null | undefined): Card['banlist'] {
  const result: Card['banlist'] = {};
  for (const format of BANLIST_FORMATS) {
    const status = info?.[`ban_${format}`];
    const mapped = status === undefined ? undefined : BAN_STATUS[status.trim().toLowerCase()];
    if (mapped !== undefined) result[format] = mapped;
  }
  return result;
}

/** `"0"`, `"0.00"`, `"$1.55"`, `"1,234.50"` → a positive number, or undefined when unknown. */
export function parsePrice(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const number = typeof value === 'number' ? value : Number(value.trim().replace(/^\$/, '').replaceAll(',', ''));
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

function prices(raw: Record<string, string | number | null | undefined> | undefined): Card['prices'] {
  const result: Card['prices'] = {};
  for (const source of PRICE_SOURCES) {
    const price = parsePrice(raw?.[`${source}_price`]);
    if (price !== undefined) result[source] = price;
  }
  return result;
}

function printing(raw: z.output<typeof rawPrintingSchema>): CardPrinting {
  const result: CardPrinting = {
    setName: raw.set_name.trim(),
    setCode: raw.set_code.trim(),
    rarity: raw.set_rarity?.trim() ?? '',
    rarityCode: (raw.set_rarity_code ?? '').trim().replace(/^\((.*)\)$/, '$1'),
  };
  const price = parsePrice(raw.set_price);
  if (price !== undefined) result.price = price;
  return result;
}

function imageIds(raw: ParsedRawCard): number[] {
  const ids = [...new Set((raw.card_images ?? []).map((image) => image.id))];
  // Upstream always lists the main art first; a card without images still has its own art id.
  return ids.length > 0 ? ids : [raw.id];
}

function altNames(betaName: string | null | undefined, name: string): string[] {
  // Some beta names come wrapped in quotes: "\"Flame Noble Arms - Durendal\"".
  const cleaned = betaName?.trim().replace(/^"(.*)"$/, '$1').trim();
  return cleaned && cleaned.toLowerCase() !== name.trim().toLowerCase() ? [cleaned] : [];
}

function statValue(value: number | null | undefined): StatValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (value === -1) return '?';
  return value >= 0 ? value : undefined;
}

function ygoprodeckUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname === 'ygoprodeck.com' && url.username === '' && url.password === ''
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

function isoDate(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed && /^\d{4}-\d{2}-\d{2}$/.test(trimmed) && !Number.isNaN(Date.parse(trimmed)) ? trimmed : undefined;
}

function isNonNegative(value: number | null | undefined): value is number {
  return value !== null && value !== undefined && value >= 0;
}

function isLinkMarker(value: string): value is LinkMarker {
  return (LINK_MARKERS as readonly string[]).includes(value);
}

function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
