import type { LookupResult } from '../../src/render/ip.js';

/** An address whose every field is as long as GeoJS could make it: for Discord's limits. */
export function longestLookupResult(index: number): LookupResult {
  const long = 'W'.repeat(400);
  return {
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
