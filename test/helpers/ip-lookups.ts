import { vi } from 'vitest';
import type { LookupOutcome, LookupResult } from '../../src/ip/resolution.js';
import { stubServices } from './command-contexts.js';

/** What `ipLookup.locate` answers in command tests: Google's resolver in Mountain View, or what `outcome` says. */

export const NOW = Date.UTC(2026, 0, 15, 20, 32);

export const GOOGLE_DNS: LookupResult = {
  address: '8.8.8.8',
  from: null,
  specialRange: null,
  record: {
    ip: '8.8.8.8',
    known: true,
    country: { code: 'US', name: 'United States' },
    region: 'California',
    city: 'Mountain View',
    asn: 15169,
    organization: 'GOOGLE',
    timezone: 'America/Los_Angeles',
    latitude: 37.4,
    longitude: -122.1,
    accuracyKm: 1000,
  },
};

export function ipServices(outcome: Partial<LookupOutcome> = {}) {
  const locate = vi.fn(async () => ({ results: [GOOGLE_DNS], notes: [], notLocated: 0, ...outcome }));
  return { app: stubServices({ ipLookup: { locate } }, NOW), locate };
}
