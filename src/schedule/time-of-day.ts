/**
 * When a subscription posts: a time of day (`HH:MM`, 24-hour) in an IANA time zone, and the next
 * UTC instant that is that time in that zone. Pure: the scheduler and `/subscribe` share it.
 */

export interface TimeOfDay {
  hour: number;
  minute: number;
}

/** Longer input is no time of day; checked before any parsing. */
const MAX_TIME_CHARS = 5;
/** The longest IANA zone name is about 30 characters; anything much longer is refused unread. */
const MAX_ZONE_CHARS = 64;

/** `9:05`, `09:05` or `23:59`; undefined for anything else (`25:61`, `9h`, `noon`). */
export function parseTimeOfDay(input: string): TimeOfDay | undefined {
  const text = input.trim();
  if (text.length > MAX_TIME_CHARS) return undefined;
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

/** `09:05`: how a time of day is stored and shown. */
export function formatTimeOfDay(time: TimeOfDay): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building one costs far more than using it. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The zone as Intl names it (`europe/paris` → `Europe/Paris`), or undefined when Intl knows no such
 * zone. Only names Intl accepts are stored, so the scheduler never meets an invalid one.
 */
export function canonicalTimeZone(input: string): string | undefined {
  const text = input.trim();
  if (text === '' || text.length > MAX_ZONE_CHARS || !/^[A-Za-z0-9_+\-/]+$/.test(text)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Every zone Intl knows, with UTC (which `supportedValuesOf` leaves out on some builds). */
const ZONES: readonly string[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

/** Up to `limit` zone names containing the query (any case; `new york` finds `America/New_York`), those starting with it first. */
export function timeZoneChoices(query: string, limit = 25): string[] {
  const needle = query.trim().slice(0, MAX_ZONE_CHARS).toLowerCase().replace(/\s+/g, '_');
  if (needle === '') return ZONES.slice(0, limit);
  const starting: string[] = [];
  const containing: string[] = [];
  for (const zone of ZONES) {
    const name = zone.toLowerCase();
    if (name.startsWith(needle) || name.includes(`/${needle}`)) starting.push(zone);
    else if (name.includes(needle)) containing.push(zone);
  }
  return [...starting, ...containing].slice(0, limit);
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The wall clock in `zone` at `instant`. */
function wallClock(instant: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** How far `zone`'s clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, zone: string): number {
  const clock = wallClock(instant, zone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute);
  return asUtc - (instant - (instant % 60_000));
}

const HOUR = 3_600_000;

/**
 * The instant `time` is on the clocks of `zone` on the given calendar day. A time skipped by a DST
 * change (02:30 when clocks jump from 02:00 to 03:00) is taken after the jump (03:30); a time that
 * happens twice (when clocks go back) is taken the first time.
 */
function instantOf(year: number, month: number, day: number, time: TimeOfDay, zone: string): number {
  const naive = Date.UTC(year, month - 1, day, time.hour, time.minute);
  // The offsets before and after any change near that day: 12 hours either side spans every zone's change.
  const before = naive - offsetAt(naive - 12 * HOUR, zone);
  const after = naive - offsetAt(naive + 12 * HOUR, zone);
  const matching = [before, after].filter((instant) => {
    const clock = wallClock(instant, zone);
    return clock.hour === time.hour && clock.minute === time.minute;
  });
  return matching.length > 0 ? Math.min(...matching) : before;
}

/** The first instant strictly after `after` (ms since the epoch) at which `zone`'s clocks show `time`. */
export function nextOccurrence(time: TimeOfDay, zone: string, after: number): number {
  const today = wallClock(after, zone);
  for (let days = 0; days < 3; days++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    const instant = instantOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), time, zone);
    if (instant > after) return instant;
  }
  // Unreachable: a day later is always after; kept total for the type checker.
  throw new Error(`no occurrence of ${formatTimeOfDay(time)} in ${zone} after ${after}`);
}

/**
 * The `nonce` Discord dedupes a post by: the same for every attempt at one occurrence of one
 * subscription, different for any other, at most 25 characters (`s` + id and due time in base 36:
 * under 22 for any id below 2^53 and any time before the year 5000).
 */
export function postNonce(subscriptionId: number, dueAt: number): string {
  return `s${subscriptionId.toString(36)}.${dueAt.toString(36)}`;
}
