import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Reply } from '../interaction/reply.js';
import type { GeoRecord } from '../ip/geo-record.js';
import { describeSpecialRange } from '../ip/special-ranges.js';
import { EMBED_LIMITS, formatInteger, truncate } from './format.js';
import { flagEmoji } from './ip.js';
import { fitText } from './user-text.js';

const BULK_COLOUR = 0x2b88d8;
/** Lines in each count field: the heaviest, which is what an incident needs first. */
const TOP = 10;

export interface BulkView {
  fileName: string;
  /** Each distinct address found, with how often, in order of first appearance. */
  counts: ReadonlyMap<string, number>;
  records: ReadonlyMap<string, GeoRecord>;
  /** Distinct addresses past the cap. */
  skipped: number;
  max: number;
  /** The map of the located places (two or more), as `map.png`. */
  map?: Buffer;
  messages: Catalogue;
}

interface Row {
  address: string;
  count: number;
  range: string | null;
  record: GeoRecord | undefined;
}

function rowsOf(view: BulkView): Row[] {
  return [...view.counts].map(([address, count]) => ({ address, count, range: describeSpecialRange(address), record: view.records.get(address) }));
}

/** The `top` heaviest keys of a tally, as `12 · label` lines. */
function topLines(tally: Map<string, number>, intlLocale: string): string {
  return [...tally]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP)
    .map(([label, count]) => `${formatInteger(count, intlLocale)} · ${label}`)
    .join('\n');
}

function tallyBy(rows: readonly Row[], key: (row: Row) => string | null): Map<string, number> {
  const tally = new Map<string, number>();
  for (const row of rows) {
    const label = key(row);
    if (label !== null) tally.set(label, (tally.get(label) ?? 0) + row.count);
  }
  return tally;
}

/** A CSV cell: quoted when it must be, and never read as a formula by a spreadsheet (`=`, `+`, `-`, `@`). */
function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_HEADER = ['address', 'count', 'special_range', 'country_code', 'country', 'region', 'city', 'asn', 'organization', 'latitude', 'longitude', 'timezone'];

/** One row per address found, in order of first appearance: what the counts were made from. */
export function bulkCsv(rows: readonly Row[]): string {
  const lines = rows.map(({ address, count, range, record }) =>
    [address, count, range ?? undefined, record?.country?.code, record?.country?.name, record?.region, record?.city, record?.asn, record?.organization, record?.latitude, record?.longitude, record?.timezone]
      .map(cell)
      .join(','),
  );
  return `${[CSV_HEADER.join(','), ...lines].join('\r\n')}\r\n`;
}

/** A whole log's addresses: counts by country, by network and by address, and the CSV of them all. */
export function renderBulk(view: BulkView): Reply {
  const t = view.messages.ops.bulk;
  const locale = view.messages.intlLocale;
  const rows = rowsOf(view);
  const seen = rows.reduce((sum, row) => sum + row.count, 0);
  const special = rows.filter((row) => row.range !== null).length;
  const located = rows.filter((row) => row.record?.known === true).length;
  const countries = tallyBy(rows, (row) => {
    if (row.range !== null) return null;
    const country = row.record?.country;
    return country ? `${flagEmoji(country.code)} ${fitText(country.name, 60)}`.trim() : t.unknown;
  });
  const networks = tallyBy(rows, (row) => {
    if (row.range !== null) return null;
    const { asn, organization } = row.record ?? {};
    if (asn === undefined && !organization) return t.unknown;
    return [asn === undefined ? null : `AS${asn}`, organization ? fitText(organization, 60) : null].filter(Boolean).join(' ');
  });
  const addresses = new Map(rows.map((row) => [`\`${row.address}\``, row.count]));
  const fields: APIEmbedField[] = [
    { name: t.byCountry, value: topLines(countries, locale) || '—', inline: true },
    { name: t.byNetwork, value: truncate(topLines(networks, locale) || '—', EMBED_LIMITS.fieldValue), inline: true },
    { name: t.byAddress, value: topLines(addresses, locale) || '—', inline: false },
  ];
  const description = [t.summary(rows.length, seen, located, special), ...(view.skipped > 0 ? [t.skipped(view.skipped, view.max)] : [])].join('\n');
  const embed: APIEmbed = {
    title: truncate(t.title(fitText(view.fileName, 100)), EMBED_LIMITS.title),
    color: BULK_COLOUR,
    description,
    fields,
    ...(view.map === undefined ? {} : { image: { url: 'attachment://map.png' } }),
  };
  return {
    embeds: [embed],
    files: [
      { name: 'addresses.csv', data: Buffer.from(bulkCsv(rows)), description: t.csv },
      ...(view.map === undefined ? [] : [{ name: 'map.png', data: view.map, description: t.map }]),
    ],
    ephemeral: true,
  };
}
