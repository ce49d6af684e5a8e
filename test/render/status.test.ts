import { describe, expect, it } from 'vitest';
import { messagesFor } from '../../src/i18n/messages.js';
import { humanizeKey, renderStatus } from '../../src/render/status.js';
import type { UpstreamHealth } from '../../src/runtime/status-report.js';

const cards: UpstreamHealth = {
  upstream: 'ygoprodeck',
  lastSuccessAt: Date.UTC(2026, 10, 21, 12, 0, 0),
  lastFailureAt: null,
  lastFailure: null,
  lastLatencyMs: 42,
  limiter: { queued: 0, running: 0, pausedUntil: null, pauseReason: null },
  caches: [{ name: 'ygoprodeck-card', size: 3, hits: 3, misses: 1, stale: 0 }],
  details: { cardDatabaseVersion: '42.01', cardDatabaseSize: 13703, cardImageBytes: 5 * 1024 * 1024, cardDatabaseLoadedAt: '2026-11-21T11:59:00.000Z', cardDatabaseLoadMs: 312.4 },
};

describe('/status renderer', () => {
  it('shows each upstream with readable facts', () => {
    const reply = renderStatus({ version: '1.2.3', uptimeMs: 90_061_000, mode: 'gateway', gatewayPingMs: 41, rssBytes: 150 * 1024 * 1024, upstreams: [cards] });
    const [embed] = reply.embeds!;
    expect(reply.ephemeral).toBe(true);
    expect(embed).toMatchSnapshot();
    const field = embed!.fields!.find((candidate) => candidate.name === '🟢 YGOPRODeck')!;
    expect(field.value).toContain('Card database size: 13,703');
    expect(field.value).toContain('Card image bytes: 5.0 MiB');
    expect(field.value).toContain('Card database loaded at: <t:1795262340:R>');
    expect(field.value).toContain('Card database load ms: 312 ms');
    expect(field.value).toContain('Cache hits: 75 % of 4');
    expect(embed!.fields!.find((candidate) => candidate.name === 'Uptime')!.value).toBe('1d 1h 1m');
  });

  it('marks a paused upstream and says until when', () => {
    const paused = { ...cards, limiter: { ...cards.limiter, pausedUntil: Date.UTC(2026, 10, 21, 13, 0, 0), pauseReason: 'blocked' } };
    const field = renderStatus({ version: '1', uptimeMs: 0, mode: 'gateway', gatewayPingMs: null, rssBytes: 0, upstreams: [paused] }).embeds![0]!.fields!.at(-1)!;
    expect(field.name).toBe('🟠 YGOPRODeck');
    expect(field.value).toMatch(/^⏸️ paused until <t:\d+:T> \(blocked\)/);
  });

  it('says which mode runs, with the gateway latency only in gateway mode', () => {
    const fields = (mode: 'gateway' | 'http') =>
      renderStatus({ version: '1', uptimeMs: 0, mode, gatewayPingMs: 12, rssBytes: 0, upstreams: [] }).embeds![0]!.fields!;
    expect(fields('http').find((field) => field.name === 'Mode')?.value).toBe('HTTP interactions');
    expect(fields('http').map((field) => field.name)).not.toContain('Gateway latency');
    expect(fields('gateway').find((field) => field.name === 'Mode')?.value).toBe('Gateway');
    expect(fields('gateway').find((field) => field.name === 'Gateway latency')?.value).toBe('12 ms');
  });

  it('shows no green dot for an upstream never asked, and orange for one that only failed', () => {
    const never = { ...cards, lastSuccessAt: null, lastLatencyMs: null };
    const failedOnly = { ...never, lastFailureAt: Date.UTC(2026, 10, 21, 12, 0, 0), lastFailure: 'unavailable' };
    const names = renderStatus({ version: '1', uptimeMs: 0, mode: 'gateway', gatewayPingMs: null, rssBytes: 0, upstreams: [never, failedOnly] })
      .embeds![0]!.fields!.slice(-2)
      .map((field) => field.name);
    expect(names).toEqual(['⚪ YGOPRODeck', '🟠 YGOPRODeck']);
  });

  it('turns camelCase facts into words', () => {
    expect(humanizeKey('cardSetsFetchedAt')).toBe('Card sets fetched at');
    expect(humanizeKey('apiKey')).toBe('Api key');
  });

  it('shows operators the egress address with its network, the range of a private one, or that it is not known', () => {
    const egressOf = (egress: Parameters<typeof renderStatus>[0]['egress'], locale?: string) =>
      renderStatus({ version: '1', uptimeMs: 0, mode: 'http', gatewayPingMs: null, rssBytes: 0, upstreams: [], egress, ...(locale ? { messages: messagesFor(locale) } : {}) })
        .embeds![0]!.fields!.find((field) => field.name.startsWith('Seen by') || field.name.startsWith('Vu des'))?.value;
    expect(egressOf({ ip: '203.0.113.5', known: false })).toBe('`203.0.113.5` · documentation range (RFC 5737)');
    expect(egressOf({ ip: '81.2.69.142', known: true, asn: 20712, organization: 'Andrews & Arnold Ltd' })).toBe('`81.2.69.142` · AS20712 · Andrews & Arnold Ltd');
    expect(egressOf(null, 'fr')).toBe('inconnue pour l’instant : GeoJS n’a pas répondu');
    expect(egressOf(undefined)).toBeUndefined();
  });
});
