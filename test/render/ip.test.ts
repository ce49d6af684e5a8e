import { describe, expect, it } from 'vitest';
import { flagEmoji, renderLookup, renderTimeLine } from '../../src/render/ip.js';
import type { LookupResult } from '../../src/ip/resolution.js';
import { embedCharacterCount, EMBED_LIMITS } from '../../src/render/format.js';
import { zoneTime } from '../../src/render/zone-time.js';
import { longestLookupResult } from '../helpers/ip-fixtures.js';

const NOW = new Date('2026-07-01T19:32:00Z');

const google: LookupResult = {
  address: '8.8.8.8',
  from: null,
  specialRange: null,
  record: { ip: '8.8.8.8', known: true, country: { code: 'US', name: 'United States' }, asn: 15169, organization: 'Google LLC', timezone: 'America/Chicago', latitude: 37.751, longitude: -97.822, accuracyKm: 1000 },
};
const privateAddress: LookupResult = { address: '10.0.0.1', from: null, specialRange: 'private network (RFC 1918)', record: { ip: '10.0.0.1', known: false } };
const cloudflare: LookupResult = { address: '1.1.1.1', from: null, specialRange: null, record: { ip: '1.1.1.1', known: false, asn: 13335, organization: 'Cloudflare, Inc.' } };

const longest = longestLookupResult;

describe('IP renderers', () => {
  it('renders a known address with flag, network, time zone and coordinates', () => {
    const [embed] = renderLookup({ results: [google], now: NOW, ephemeral: true }).embeds!;
    expect(embed).toMatchSnapshot();
    expect(embed!.description).toBe('🇺🇸 United States');
    expect(embed!.fields?.find((field) => field.name === 'Network')?.value).toBe('AS15169 · Google LLC');
    expect(embed!.fields?.find((field) => field.name === 'Time zone')?.value).toContain('14:32 Wed 1 Jul (UTC−05:00)');
    expect(embed!.fields?.find((field) => field.name === 'Coordinates')?.value).toContain('https://www.openstreetmap.org/?mlat=37.7510&mlon=-97.8220');
  });

  it('explains a private address in plain words and shows no empty fields', () => {
    const [embed] = renderLookup({ results: [privateAddress], now: NOW, ephemeral: true }).embeds!;
    expect(embed!.description).toContain('private network (RFC 1918)');
    expect(embed!.fields).toBeUndefined();
    expect(JSON.stringify(embed)).not.toMatch(/nil|undefined|null|NaN/);
  });

  it('shows only the network for an address with an ASN but no location', () => {
    const [embed] = renderLookup({ results: [cloudflare], now: NOW, ephemeral: false }).embeds!;
    expect(embed!.description).toBe('No location known for this address; only its network.');
    expect(embed!.fields).toEqual([{ name: 'Network', value: 'AS13335 · Cloudflare, Inc.', inline: true }]);
  });

  it("keeps Discord's limits for 10 addresses with the longest field values", () => {
    const reply = renderLookup({ results: Array.from({ length: 10 }, (_, index) => longest(index)), now: NOW, ephemeral: true });
    expect(reply.embeds).toHaveLength(10);
    const total = reply.embeds!.reduce((sum, embed) => sum + embedCharacterCount(embed as never), 0);
    expect(total).toBeLessThanOrEqual(EMBED_LIMITS.total);
    for (const embed of reply.embeds!) {
      expect(embed.title!.length).toBeLessThanOrEqual(EMBED_LIMITS.title);
      expect(embed.description!.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
      for (const field of embed.fields ?? []) expect(field.value.length).toBeLessThanOrEqual(EMBED_LIMITS.fieldValue);
    }
  });

  it('names the host an address came from, its reverse name, and each name that gave nothing', () => {
    const fromName: LookupResult = { ...google, from: 'bücher.example', reverse: { name: 'dns.google', confirmed: true } };
    const reply = renderLookup({
      results: [fromName, { ...cloudflare, reverse: { name: 'one.one.one.one', confirmed: false } }],
      notes: [
        { kind: 'unresolved', name: 'gone.example', failure: 'noSuchName' },
        { kind: 'private', name: 'nas.example' },
      ],
      notLocated: 3,
      now: NOW,
      ephemeral: true,
    });
    expect(reply.embeds!.map((embed) => embed.title)).toEqual(['bücher.example → 8.8.8.8', '1.1.1.1']);
    expect(reply.embeds![0]!.fields?.find((field) => field.name === 'Reverse DNS')?.value).toBe('dns.google\n✅ leads back to this address');
    expect(reply.embeds![1]!.fields?.find((field) => field.name === 'Reverse DNS')?.value).toBe('one.one.one.one\n⚠️ does not lead back to this address');
    expect(reply.content).toBe(
      '• “gone.example”: no such name\n• “nas.example”: points to a private address, not looked up\nLocated 2 addresses; 3 more were not (at most 10 per command).',
    );
    expect(renderTimeLine(fromName, new Date('2026-01-15T20:32:00Z'), false).content).toBe(
      '`bücher.example → 8.8.8.8` · 🇺🇸 United States · America/Chicago · 14:32 (UTC−06:00)',
    );
  });

  it('writes the ops one-liner for /ip time', () => {
    expect(renderTimeLine(google, new Date('2026-01-15T20:32:00Z'), false).content).toBe('`8.8.8.8` · 🇺🇸 United States · America/Chicago · 14:32 (UTC−06:00)');
    expect(renderTimeLine(privateAddress, NOW, false).content).toBe(
      '`10.0.0.1` · This address is in a private network (RFC 1918) range: it is not on the public internet, so it has no location.',
    );
  });

  it('follows daylight saving time across the boundary', () => {
    expect(zoneTime('America/Chicago', new Date('2026-03-08T07:59:00Z'))).toMatchObject({ time: '01:59', offsetLabel: 'UTC−06:00' });
    expect(zoneTime('America/Chicago', new Date('2026-03-08T08:00:00Z'))).toMatchObject({ time: '03:00', offsetLabel: 'UTC−05:00' });
    expect(zoneTime('Europe/London', new Date('2026-10-25T00:59:00Z'))).toMatchObject({ time: '01:59', offsetLabel: 'UTC+01:00' });
    expect(zoneTime('Europe/London', new Date('2026-10-25T01:00:00Z'))).toMatchObject({ time: '01:00', offsetLabel: 'UTC±00:00' });
    expect(zoneTime('Not/AZone', NOW)).toBeNull();
  });

  it('answers each zone and language for itself within one minute, and the next minute afresh', () => {
    const instant = new Date('2026-03-08T07:59:10Z');
    expect(zoneTime('America/Chicago', instant)).toMatchObject({ time: '01:59', date: 'Sun 8 Mar' });
    expect(zoneTime('Asia/Tokyo', instant)).toMatchObject({ time: '16:59', offsetLabel: 'UTC+09:00' });
    expect(zoneTime('America/Chicago', instant, 'fr-FR')).toMatchObject({ time: '01:59', date: 'dim. 8 mars' });
    expect(zoneTime('America/Chicago', new Date('2026-03-08T07:59:50Z'))).toMatchObject({ time: '01:59', date: 'Sun 8 Mar' });
    expect(zoneTime('America/Chicago', new Date('2026-03-08T08:00:00Z'))).toMatchObject({ time: '03:00', offsetLabel: 'UTC−05:00' });
  });

  it('makes flags only from two-letter codes', () => {
    expect(flagEmoji('gb')).toBe('🇬🇧');
    expect(flagEmoji('USA')).toBe('');
    expect(flagEmoji('')).toBe('');
  });
});
