import fc from 'fast-check';
import type { LookupResult } from '../../src/ip/resolution.js';

/** A host name as long as DNS allows (253 characters), in Unicode as it is shown. */
export const LONGEST_NAME = `${'ü'.repeat(63)}.${'w'.repeat(63)}.${'w'.repeat(63)}.${'w'.repeat(61)}`;

/** An address whose every field is as long as GeoJS (and DNS) could make it: for Discord's limits. */
export function longestLookupResult(index: number): LookupResult {
  const long = 'W'.repeat(400);
  return {
    from: LONGEST_NAME,
    reverse: { name: LONGEST_NAME, confirmed: false },
    address: `2001:db8:ffff:ffff:ffff:ffff:ffff:${index.toString(16).padStart(4, 'f')}`,
    specialRange: null,
    record: {
      ip: 'x',
      known: true,
      country: { code: 'GB', name: long },
      region: long,
      city: long,
      asn: 4_294_967_295,
      organization: long,
      timezone: 'America/Argentina/ComodRivadavia',
      latitude: -89.99999,
      longitude: -179.99999,
      accuracyKm: 20_000,
    },
  };
}

/** fast-check's domains, minus those Almanac refuses on purpose (single labels never come out of it). */
export const PUBLIC_DOMAIN = fc.domain().filter((domain) => !/(^|\.)(localhost|local|internal|home\.arpa|lan|home|corp|intranet|private)$/i.test(domain));
