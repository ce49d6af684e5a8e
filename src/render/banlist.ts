import type { APIEmbed } from 'discord.js';
import {
  BANLIST_FORMAT_NAMES,
  banlistPageCustomId,
  MAX_BANLIST_PAGE,
  STATUS_ORDER,
  type BanlistChange,
  type BanlistEntry,
  type ListFormat,
  type BanlistVersion,
  type DeckOffence,
} from '../cards/banlist.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { MessagePayload, Reply } from '../interaction/reply.js';
import { pageWindow, pagerRow } from './card-set.js';
import { discordTimestamp, EMBED_LIMITS, fitEmbedsToLimit, truncate } from './format.js';

/** Cards a page of a list shows: short lines, well inside an embed's description. */
export const BANLIST_PAGE_SIZE = 40;
/** Lines of a group of changes before the rest are counted (a field holds 1,024 characters). */
const MAX_GROUP_LINES = 20;
/** Decks listed under a post before the rest are counted. */
const MAX_DECKS = 10;
const BANLIST_COLOUR = 0xc0392b;

function seen(at: number): string {
  return discordTimestamp(at, 'D');
}

/** Lines under a heading per status, in the order the entries come (by status, then name). */
function groupedLines(entries: readonly BanlistEntry[], messages: Catalogue): string {
  const lines: string[] = [];
  let status: string | undefined;
  for (const entry of entries) {
    const heading = entry.status === undefined ? messages.genesys.pointedHeading : messages.banlist.statuses[entry.status];
    if (heading !== status) lines.push(`**${heading}**`);
    status = heading;
    lines.push(`- ${entry.name}${entry.points === undefined ? '' : ` (${entry.points})`}`);
  }
  return lines.join('\n');
}

/** `/card banlist format`: one page of the format's latest list, Forbidden first, ◀ ▶ when there are more. */
export function renderBanlistPage(format: ListFormat, list: BanlistVersion, requested: number, messages: Catalogue): Reply {
  const { page, pages } = pageWindow(list.entries.length, BANLIST_PAGE_SIZE, MAX_BANLIST_PAGE, requested);
  const shown = list.entries.slice(page * BANLIST_PAGE_SIZE, (page + 1) * BANLIST_PAGE_SIZE);
  const embed: APIEmbed = {
    title: messages.banlist.title(BANLIST_FORMAT_NAMES[format]),
    color: BANLIST_COLOUR,
    description: truncate(shown.length === 0 ? messages.banlist.empty : groupedLines(shown, messages), EMBED_LIMITS.description),
    footer: { text: `${messages.banlist.page(page + 1, pages)} · ${truncate(list.version, 40)}` },
    fields: [{ name: '\u200b', value: messages.banlist.version(truncate(list.version, 40), seen(list.recordedAt)) }],
  };
  return { embeds: [embed], ...(pages > 1 ? { components: [pagerRow(page, pages, (target) => banlistPageCustomId(format, target))] } : {}) };
}

/** The changes as embed fields, one per new status (and points), each capped with a count of the rest. */
function changeFields(changes: readonly BanlistChange[], messages: Catalogue): APIEmbed['fields'] {
  const fields: NonNullable<APIEmbed['fields']> = [];
  const groups: (BanlistChange['to'])[] = [...STATUS_ORDER, 'Unlimited'];
  for (const to of groups) {
    const moved = changes.filter((change) => change.to === to && change.from !== change.to);
    if (moved.length > 0) fields.push({ name: messages.banlist.groups[to], value: cappedLines(moved.map((change) => messages.banlist.moved(change.name, messages.banlist.statuses[change.from])), messages) });
  }
  const points = changes.filter((change) => change.points !== undefined);
  if (points.length > 0) fields.push({ name: messages.banlist.pointsGroup, value: cappedLines(points.map((change) => messages.banlist.points(change.name, change.points!.from, change.points!.to)), messages) });
  return fields;
}

function cappedLines(lines: readonly string[], messages: Catalogue): string {
  const shown = lines.slice(0, MAX_GROUP_LINES).map((line) => `- ${line}`);
  if (lines.length > MAX_GROUP_LINES) shown.push(messages.banlist.more(lines.length - MAX_GROUP_LINES));
  return truncate(shown.join('\n'), EMBED_LIMITS.fieldValue);
}

/** `/card banlist format changes:true`: what changed against the previous list that differed. */
export function renderBanlistChanges(format: ListFormat, before: BanlistVersion, after: BanlistVersion, changes: readonly BanlistChange[], messages: Catalogue): Reply {
  return {
    embeds: fitEmbedsToLimit([
      {
        title: messages.banlist.changesTitle(BANLIST_FORMAT_NAMES[format]),
        color: BANLIST_COLOUR,
        description: messages.banlist.changesBetween(truncate(before.version, 40), seen(before.recordedAt), truncate(after.version, 40), seen(after.recordedAt)),
        fields: changeFields(changes, messages),
      },
    ]),
  };
}

/** Until a second, different list is seen: since when Almanac keeps them. */
export function renderBanlistKeepingSince(format: ListFormat, since: number, messages: Catalogue): Reply {
  return { embeds: [{ title: messages.banlist.changesTitle(BANLIST_FORMAT_NAMES[format]), color: BANLIST_COLOUR, description: messages.banlist.keepingSince(seen(since)) }] };
}

/** A deck the change makes illegal, with when it was shown here and the cards that do it. */
export interface FlaggedDeck {
  shownAt: number;
  offences: DeckOffence[];
  /** Genesys: the deck's new point total, over the cap. */
  points?: { total: number; cap: number };
}

function offenceText(offence: DeckOffence, messages: Catalogue): string {
  return 'status' in offence
    ? messages.banlist.offence(offence.copies, offence.name, messages.banlist.statuses[offence.status])
    : messages.genesys.offence(String(offence.copies), offence.name, String(offence.points));
}

function flaggedText(deck: FlaggedDeck, messages: Catalogue): string {
  const cards = deck.offences.map((offence) => offenceText(offence, messages)).join(', ');
  return deck.points === undefined ? cards : `${messages.genesys.total(String(deck.points.total), String(deck.points.cap))}: ${cards}`;
}

/** `/subscribe banlist`'s post: the change grouped, and the decks shown here that it makes illegal. */
export function renderBanlistPost(format: ListFormat, before: BanlistVersion, after: BanlistVersion, changes: readonly BanlistChange[], decks: readonly FlaggedDeck[], messages: Catalogue): MessagePayload {
  const [embed] = renderBanlistChanges(format, before, after, changes, messages).embeds!;
  const embeds: APIEmbed[] = [{ ...embed!, title: messages.banlist.postTitle(BANLIST_FORMAT_NAMES[format]) }];
  if (decks.length > 0) {
    const lines = decks.slice(0, MAX_DECKS).map((deck) => messages.banlist.deck(discordTimestamp(deck.shownAt, 'R'), flaggedText(deck, messages)));
    if (decks.length > MAX_DECKS) lines.push(messages.banlist.more(decks.length - MAX_DECKS));
    embeds.push({ title: messages.banlist.decksTitle, color: BANLIST_COLOUR, description: truncate(lines.map((line) => `- ${line}`).join('\n'), EMBED_LIMITS.description) });
  }
  return { embeds: fitEmbedsToLimit(embeds) };
}
