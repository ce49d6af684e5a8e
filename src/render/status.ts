import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Reply } from '../interaction/reply.js';
import type { UpstreamHealth } from '../runtime/status-report.js';
import type { RunMode } from '../runtime/status-report.js';
import type { FleetMember, SharedStateHealth } from '../runtime/status-report.js';
import { upstreamLabel, type UpstreamName } from '../interaction/upstream-error.js';
import { discordTimestamp, formatBytes, formatDuration, formatInteger } from './format.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { GeoRecord } from '../ip/geo-record.js';
import { describeSpecialRange } from '../ip/special-ranges.js';
import { fitText } from './user-text.js';

interface StatusData {
  version: string;
  uptimeMs: number;
  mode: RunMode;
  gatewayPingMs: number | null;
  rssBytes: number;
  upstreams: UpstreamHealth[];
  /** A fleet sharing state through Redis: its health and live processes (absent for a single process). */
  fleet?: { health: SharedStateHealth; members: FleetMember[] };
  /**
   * For operators only (Manage Server, or OPERATOR_IDS): the address upstreams see Almanac from, and
   * its network; null when GeoJS could not say. Absent for everyone else.
   */
  egress?: GeoRecord | null;
  messages?: Catalogue;
}

const STATUS_COLOUR = 0x5865f2;

const MODE_LABELS: Record<RunMode, string> = {
  gateway: 'Gateway',
  http: 'HTTP interactions',
  terminal: 'Terminal',
};

function hitRatio(health: UpstreamHealth): string {
  const totals = health.caches.reduce(
    (sum, cache) => ({ hits: sum.hits + cache.hits + cache.stale, lookups: sum.lookups + cache.hits + cache.stale + cache.misses }),
    { hits: 0, lookups: 0 },
  );
  return totals.lookups === 0 ? 'no lookups yet' : `${Math.round((totals.hits / totals.lookups) * 100)} % of ${totals.lookups}`;
}

/** `cardDatabaseLoadedAt` → `Card database loaded at`. */
export function humanizeKey(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Instants as Discord relative times, byte counts in units, other numbers grouped. */
function formatFact(key: string, value: string | number): string {
  if (typeof value === 'number') {
    if (/Bytes$/.test(key)) return formatBytes(value);
    if (/Ms$/.test(key)) return `${formatInteger(Math.round(value))} ms`;
    return formatInteger(value);
  }
  return ISO_INSTANT.test(value) ? discordTimestamp(Date.parse(value), 'R') : value;
}

/** 🟢 last call succeeded, 🟠 paused or last call failed, ⚪ not asked anything yet (green would claim too much). */
function healthDot(health: UpstreamHealth): string {
  if (health.limiter.pausedUntil !== null) return '🟠';
  if (health.lastSuccessAt === null) return health.lastFailureAt === null ? '⚪' : '🟠';
  return health.lastFailureAt === null || health.lastSuccessAt > health.lastFailureAt ? '🟢' : '🟠';
}

function upstreamField(health: UpstreamHealth): APIEmbedField {
  const lines: string[] = [];
  if (health.limiter.pausedUntil !== null) {
    lines.push(`⏸️ paused until ${discordTimestamp(health.limiter.pausedUntil, 'T')} (${health.limiter.pauseReason ?? 'rate limited'})`);
  }
  const lastOk = health.lastSuccessAt === null ? 'never' : discordTimestamp(health.lastSuccessAt, 'R');
  const latency = health.lastLatencyMs === null ? '' : ` · ${health.lastLatencyMs} ms`;
  lines.push(`Last success: ${lastOk}${latency}`);
  if (health.lastFailureAt !== null) {
    lines.push(`Last failure: ${discordTimestamp(health.lastFailureAt, 'R')} (${health.lastFailure ?? 'error'})`);
  }
  lines.push(`Queue: ${health.limiter.queued} waiting, ${health.limiter.running} running`);
  lines.push(`Cache hits: ${hitRatio(health)}`);
  for (const [key, value] of Object.entries(health.details)) lines.push(`${humanizeKey(key)}: ${formatFact(key, value)}`);
  return { name: `${healthDot(health)} ${upstreamLabel(health.upstream)}`, value: lines.join('\n').slice(0, 1024), inline: false };
}

/** The fleet as one field: shared-state health, processes, shards, guilds, and per upstream its fleet-wide rate, queue and pause. */
function fleetField(fleet: NonNullable<StatusData['fleet']>): APIEmbedField {
  const { health, members } = fleet;
  const lines = [
    health.degraded
      ? `⚠️ Shared state: degraded${health.since === null ? '' : ` since ${discordTimestamp(health.since, 'R')}`} (Redis unreachable): each process uses 1/${health.fallbackShareOf} of each budget`
      : 'Shared state: Redis',
  ];
  const shards = [...new Set(members.flatMap((member) => member.shards))].sort((left, right) => left - right);
  const guilds = members.reduce((sum, member) => sum + member.guilds, 0);
  lines.push(
    `Processes: ${formatInteger(members.length)} · shards: ${shards.length === 0 ? 'none' : shards.join(', ')} · guilds: ${formatInteger(guilds)}`,
  );
  const byUpstream = new Map<UpstreamName, { requests: number; queued: number; pausedUntil: number | null }>();
  for (const report of members.flatMap((member) => member.upstreams)) {
    const total = byUpstream.get(report.upstream) ?? { requests: 0, queued: 0, pausedUntil: null };
    total.requests += report.requestsLastMinute;
    total.queued += report.queued;
    if (report.pausedUntil !== null) total.pausedUntil = Math.max(total.pausedUntil ?? 0, report.pausedUntil);
    byUpstream.set(report.upstream, total);
  }
  for (const [upstream, total] of byUpstream) {
    const paused = total.pausedUntil === null ? '' : ` · ⏸️ until ${discordTimestamp(total.pausedUntil, 'T')}`;
    lines.push(`${upstreamLabel(upstream)}: ${formatInteger(total.requests)} requests in the last minute, ${formatInteger(total.queued)} waiting${paused}`);
  }
  return { name: `${health.degraded ? '🟠' : '🟢'} Fleet`, value: lines.join('\n').slice(0, 1024), inline: false };
}

/** `203.0.113.5 · AS64500 · Example Networks`: the address and its network, or the range it is in. */
function egressField(egress: GeoRecord | null, messages: Catalogue): APIEmbedField {
  if (egress === null) return { name: messages.status.egress, value: messages.status.egressUnknown, inline: false };
  const range = describeSpecialRange(egress.ip);
  const network = [egress.asn === undefined ? null : `AS${egress.asn}`, egress.organization ? fitText(egress.organization, 200) : null];
  const parts = [`\`${egress.ip}\``, ...(range === null ? network : [range])].filter((part): part is string => Boolean(part));
  return { name: messages.status.egress, value: parts.join(' · '), inline: false };
}

export function renderStatus(data: StatusData): Reply {
  const embed: APIEmbed = {
    title: 'Almanac status',
    color: STATUS_COLOUR,
    fields: [
      { name: 'Version', value: data.version, inline: true },
      { name: 'Uptime', value: formatDuration(data.uptimeMs), inline: true },
      { name: 'Mode', value: MODE_LABELS[data.mode], inline: true },
      // Only the gateway mode holds a connection whose latency means something.
      ...(data.mode === 'gateway'
        ? [{ name: 'Gateway latency', value: data.gatewayPingMs === null || data.gatewayPingMs < 0 ? 'not connected' : `${data.gatewayPingMs} ms`, inline: true }]
        : []),
      { name: 'Memory', value: formatBytes(data.rssBytes), inline: true },
      ...(data.egress === undefined ? [] : [egressField(data.egress, data.messages ?? en)]),
      ...(data.fleet ? [fleetField(data.fleet)] : []),
      ...data.upstreams.map(upstreamField),
    ],
  };
  return { embeds: [embed], ephemeral: true };
}
