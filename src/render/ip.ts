import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed, type APIEmbedField } from 'discord.js';
import type { ActionRow, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { RejectedEntry } from '../ip/address-list.js';
import type { GeoRecord } from '../ip/geo-record.js';
import type { EntryNote, LookupResult, ReverseName } from '../ip/resolution.js';
import { ownerButtonId } from '../ip/whois-query.js';
import { discordTimestamp, EMBED_LIMITS, fitEmbedsToLimit, truncate } from './format.js';
import { fitText, quoteUserText } from './user-text.js';
import { zoneTime } from './zone-time.js';

const KNOWN_COLOUR = 0x2b88d8;
const UNKNOWN_COLOUR = 0x99aab5;
/** Discord's limit: 5 buttons a row. `/ip lookup` shows at most 10 addresses, so two rows at most. */
const BUTTONS_PER_ROW = 5;

/** 🇺🇸 from `US`: two regional indicator symbols. Empty for anything that is not two letters. */
export function flagEmoji(countryCode: string): string {
  if (!/^[A-Za-z]{2}$/.test(countryCode)) return '';
  return [...countryCode.toUpperCase()].map((letter) => String.fromCodePoint(0x1f1e6 + letter.charCodeAt(0) - 65)).join('');
}

function placeOf(record: GeoRecord): string | null {
  const parts = [record.city, record.region].filter((part): part is string => Boolean(part));
  if (record.country) parts.push(record.country.name);
  if (parts.length === 0) return null;
  const flag = record.country ? flagEmoji(record.country.code) : '';
  return `${flag ? `${flag} ` : ''}${fitText([...new Set(parts)].join(', '), 300)}`;
}

function networkOf(record: GeoRecord): string | null {
  if (record.asn === undefined && !record.organization) return null;
  const asn = record.asn === undefined ? null : `AS${record.asn}`;
  return [asn, record.organization ? fitText(record.organization, 200) : null].filter(Boolean).join(' · ');
}

/** English keeps its `Sun 8 Mar` date; other languages get theirs from `Intl`. */
function dateLocaleOf(messages: Catalogue): string {
  return messages === en ? 'en-GB' : messages.intlLocale;
}

function timeOf(record: GeoRecord, now: Date, messages: Catalogue): string | null {
  if (!record.timezone) return null;
  const local = zoneTime(record.timezone, now, dateLocaleOf(messages));
  if (!local) return null;
  return `${record.timezone}\n${local.time} ${local.date} (${local.offsetLabel})\n${messages.ip.yourTime}: ${discordTimestamp(now, 't')}`;
}

function coordinatesOf(record: GeoRecord): string | null {
  if (record.latitude === undefined || record.longitude === undefined) return null;
  const lat = record.latitude.toFixed(4);
  const lon = record.longitude.toFixed(4);
  const link = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=10/${lat}/${lon}`;
  const radius = record.accuracyKm === undefined ? '' : ` (± ${record.accuracyKm} km)`;
  return `[${lat}, ${lon}](${link})${radius}`;
}

/**
 * What to say about an address GeoJS has no record for. `specialRange` names the range the address
 * is in (private, loopback, documentation…), when it is in one.
 */
function unknownDescription(specialRange: string | null, messages: Catalogue): string {
  return specialRange ? messages.ip.specialRange(specialRange) : messages.ip.noLocation;
}

/** `github.com → 140.82.121.4`, or the address alone when it was typed as one. */
function labelOf(result: LookupResult, max: number): string {
  return result.from === null ? result.address : `${fitText(result.from, max - result.address.length - 3)} → ${result.address}`;
}

function reverseOf(reverse: ReverseName, messages: Catalogue): string {
  const check = reverse.confirmed ? `✅ ${messages.ip.confirmed}` : `⚠️ ${messages.ip.unconfirmed}`;
  return `${fitText(reverse.name, 300)}\n${check}`;
}

function renderAddressEmbed(result: LookupResult, now: Date, messages: Catalogue = en): APIEmbed {
  const { record } = result;
  const labels = messages.ip;
  const place = placeOf(record);
  const fields: APIEmbedField[] = [];
  const network = networkOf(record);
  if (network) fields.push({ name: labels.network, value: network, inline: true });
  if (result.reverse) fields.push({ name: labels.reverseName, value: reverseOf(result.reverse, messages), inline: true });
  const time = timeOf(record, now, messages);
  if (time) fields.push({ name: labels.timeZone, value: time, inline: true });
  const coordinates = coordinatesOf(record);
  if (coordinates) fields.push({ name: labels.coordinates, value: coordinates, inline: false });
  const description = place ?? (network ? labels.onlyNetwork : unknownDescription(result.specialRange, messages));
  return {
    title: labelOf(result, EMBED_LIMITS.title),
    description,
    color: record.known ? KNOWN_COLOUR : UNKNOWN_COLOUR,
    ...(fields.length > 0 ? { fields } : {}),
  };
}

interface LookupView {
  results: LookupResult[];
  now: Date;
  ephemeral: boolean;
  /** Entries found but not looked up because of the 10-entry limit. */
  skipped?: number;
  /** Names that gave nothing to locate, one line each. */
  notes?: EntryNote[];
  /** Addresses the names resolved to beyond the 10 located. */
  notLocated?: number;
  /** The map of the located places (two or more), attached as `map.png`. */
  map?: Buffer;
  messages?: Catalogue;
}

/** `• “nope.example”: no such name`: what became of each name that gave nothing to locate. */
export function renderNotes(notes: readonly EntryNote[], messages: Catalogue = en): string[] {
  return notes.map((note) => {
    const why = note.kind === 'private' ? messages.ip.pointsToPrivate : messages.ip.failures[note.failure];
    return `• ${quoteUserText(note.name, 80)}: ${why}`;
  });
}

/** One embed per address, in input order; a line per name that gave nothing, and notes on what was skipped. */
export function renderLookup(view: LookupView): Reply {
  const messages = view.messages ?? en;
  const embeds = fitEmbedsToLimit(view.results.slice(0, EMBED_LIMITS.embedsPerMessage).map((result) => renderAddressEmbed(result, view.now, messages)));
  const skipped = view.skipped ?? 0;
  const notLocated = view.notLocated ?? 0;
  const lines = [
    ...renderNotes(view.notes ?? [], messages),
    ...(skipped > 0 ? [messages.ip.skipped(embeds.length, skipped)] : []),
    ...(notLocated > 0 ? [messages.ip.notLocated(embeds.length, notLocated)] : []),
  ];
  const content = lines.length > 0 ? truncate(lines.join('\n'), EMBED_LIMITS.content) : undefined;
  const publicAddresses = view.results.slice(0, embeds.length).flatMap((result) => (result.specialRange === null ? [result.address] : []));
  const components = ownerButtons([...new Set(publicAddresses)], messages);
  const files = view.map === undefined ? [] : [{ name: 'map.png', data: view.map, description: messages.ops.bulk.map }];
  return { ...(content ? { content } : {}), embeds, ...(components.length > 0 ? { components } : {}), ...(files.length > 0 ? { files } : {}), ephemeral: view.ephemeral };
}

/** `8.8.8.8 · 🇺🇸 United States · America/Chicago · 14:32 (UTC−06:00)` */
export function renderTimeLine(result: LookupResult, now: Date, ephemeral: boolean, messages: Catalogue = en): Reply {
  const { record } = result;
  const local = record.timezone ? zoneTime(record.timezone, now) : null;
  const where = record.country ? `${flagEmoji(record.country.code)} ${fitText(record.country.name, 100)}`.trim() : null;
  if (!local || !record.timezone) {
    const reason = record.known || where ? messages.ip.noTimeZone : unknownDescription(result.specialRange, messages).replace(/\.$/, '');
    return { content: `\`${labelOf(result, 300)}\`${where ? ` · ${where}` : ''} · ${reason}.`, ephemeral };
  }
  const parts = [`\`${labelOf(result, 300)}\``, where, record.timezone, `${local.time} (${local.offsetLabel})`].filter(Boolean);
  return { content: parts.join(' · '), ephemeral };
}

/** The refusal listing exactly which entries were rejected and why. */
export function renderRejectedEntries(rejected: RejectedEntry[], extra: string[] = [], messages: Catalogue = en): string {
  const lines = rejected.slice(0, 10).map(({ entry, problem }) => `• ${quoteUserText(entry, 60)}: ${messages.ip.problems[problem]}`);
  if (rejected.length > 10) lines.push(`• ${messages.ip.andMore(rejected.length - 10)}`);
  return truncate([messages.ip.notAddresses, ...lines, ...extra].join('\n'), EMBED_LIMITS.content);
}

/**
 * The registration buttons under a lookup: one per public address (what a registry knows of a
 * private one is nothing), so the first answer asks no registry and stays fast.
 */
function ownerButtons(addresses: readonly string[], messages: Catalogue): ActionRow[] {
  const buttons: APIButtonComponent[] = addresses.map((address) => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: ownerButtonId(address),
    label: truncate(messages.ops.whois.button(address), 80),
  }));
  const rows: ActionRow[] = [];
  for (let start = 0; start < buttons.length && rows.length < 5; start += BUTTONS_PER_ROW) {
    rows.push({ type: ComponentType.ActionRow, components: buttons.slice(start, start + BUTTONS_PER_ROW) });
  }
  return rows;
}
