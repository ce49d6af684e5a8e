import { z } from 'zod';
import { parseIpAddress } from '../../ip/address.js';
import type { GeoRecord } from '../../ip/geo-record.js';

/**
 * GeoJS's answers, validated and turned into `GeoRecord`s: nothing GeoJS sends reaches a renderer
 * before it has passed through here.
 */

/** GeoJS's placeholder for "no ASN": the first private ASN. */
const UNKNOWN_ASN = 64512;

// No `null`s upstream: a missing value is a missing key, except lat/lon which are the string "nil".
// Coordinates were numbers in early versions, hence the union.
const rawGeoRecord = z.object({
  ip: z.string().optional(),
  accuracy: z.number().int().nonnegative().optional(),
  asn: z.number().int().nonnegative().optional(),
  city: z.string().optional(),
  continent_code: z.string().optional(),
  country: z.string().optional(),
  country_code: z.string().optional(),
  country_code3: z.string().optional(),
  latitude: z.union([z.string(), z.number()]).optional(),
  longitude: z.union([z.string(), z.number()]).optional(),
  organization: z.string().optional(),
  organization_name: z.string().optional(),
  region: z.string().optional(),
  timezone: z.string().optional(),
});
type RawGeoRecord = z.infer<typeof rawGeoRecord>;

/** The list form (`?ip=a,b`) always answers an array, even for one address. */
export const rawGeoAnswer = z.array(rawGeoRecord);

/** `/v1/ip.json`: the address the request came from. */
export const rawEgressAnswer = z.object({ ip: z.string() });

/** A trimmed non-empty string, with GeoJS's "nil"/"" placeholders treated as absent. */
function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' || trimmed === 'nil' ? undefined : trimmed;
}

function coordinate(value: string | number | undefined, limit: number): number | undefined {
  const raw = typeof value === 'number' ? value : text(value);
  if (raw === undefined) return undefined;
  const number = typeof raw === 'number' ? raw : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(number) && Math.abs(number) <= limit ? number : undefined;
}

function knownTimeZone(value: string | undefined): string | undefined {
  const zone = text(value);
  if (zone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

function organizationOf(raw: RawGeoRecord): string | undefined {
  // `organization` is the deprecated "AS<asn> <name>" form: only a fallback for the name.
  const name = text(raw.organization_name) ?? text(raw.organization?.replace(/^AS\d+\s*/, ''));
  return name === 'Unknown' ? undefined : name;
}

function toGeoRecord(ip: string, raw: RawGeoRecord): GeoRecord {
  const record: GeoRecord = { ip, known: false };
  const code = text(raw.country_code)?.toUpperCase();
  if (code !== undefined && /^[A-Z]{2}$/.test(code)) {
    const code3 = text(raw.country_code3)?.toUpperCase();
    record.country = { code, name: text(raw.country) ?? code };
    if (code3 !== undefined && /^[A-Z]{3}$/.test(code3)) record.country.code3 = code3;
  }
  const region = text(raw.region);
  if (region !== undefined) record.region = region;
  const city = text(raw.city);
  if (city !== undefined) record.city = city;
  const continent = text(raw.continent_code)?.toUpperCase();
  if (continent !== undefined && /^[A-Z]{2}$/.test(continent)) record.continentCode = continent;
  const latitude = coordinate(raw.latitude, 90);
  const longitude = coordinate(raw.longitude, 180);
  // A coordinate is only useful as a pair.
  if (latitude !== undefined && longitude !== undefined) {
    record.latitude = latitude;
    record.longitude = longitude;
    if (raw.accuracy !== undefined) record.accuracyKm = raw.accuracy;
  }
  if (raw.asn !== undefined && raw.asn !== UNKNOWN_ASN && raw.asn > 0) record.asn = raw.asn;
  const organization = organizationOf(raw);
  if (organization !== undefined) record.organization = organization;
  const timezone = knownTimeZone(raw.timezone);
  if (timezone !== undefined) record.timezone = timezone;
  record.known =
    record.country !== undefined ||
    record.city !== undefined ||
    record.region !== undefined ||
    record.latitude !== undefined ||
    record.asn !== undefined ||
    record.timezone !== undefined;
  return record;
}

/**
 * Pairs each answer with the address it is for. The `ip` echo decides (GeoJS echoes the string it
 * was sent, which is canonical because we send canonical forms; it is re-canonicalised anyway).
 * Only an entry whose echo is missing or unreadable falls back to its position, and only when the
 * answer has exactly one entry per address asked. An echo naming an address we did not ask about is
 * ignored rather than guessed at.
 */
export function matchAnswers(requested: readonly string[], answers: readonly RawGeoRecord[]): Map<string, GeoRecord> {
  const wanted = new Set(requested);
  const records = new Map<string, GeoRecord>();
  const unreadable: number[] = [];
  answers.forEach((raw, index) => {
    const echo = raw.ip === undefined ? undefined : parseIpAddress(raw.ip);
    if (echo === undefined || !echo.ok) unreadable.push(index);
    else if (wanted.has(echo.address) && !records.has(echo.address)) records.set(echo.address, toGeoRecord(echo.address, raw));
  });
  if (answers.length === requested.length) {
    for (const index of unreadable) {
      const address = requested[index]!;
      if (!records.has(address)) records.set(address, toGeoRecord(address, answers[index]!));
    }
  }
  return records;
}
