import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, formatTimeOfDay, nextOccurrence, parseTimeOfDay, postNonce, timeZoneChoices } from '../../src/schedule/time-of-day.js';

/** Times of day, zones and next occurrences: what `/subscribe` accepts and when the scheduler posts. */

describe('parseTimeOfDay', () => {
  it('reads HH:MM on a 24-hour clock and refuses anything else', () => {
    expect(parseTimeOfDay('9:05')).toEqual({ hour: 9, minute: 5 });
    expect(parseTimeOfDay(' 23:59 ')).toEqual({ hour: 23, minute: 59 });
    for (const bad of ['25:61', '24:00', '12:60', '9h', 'noon', '', '1:2', '001:00', '12:00:00', '-1:00', '１２:００']) expect(parseTimeOfDay(bad)).toBeUndefined();
  });

  it('never throws, and what it accepts is a real time that reads back the same', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1000 }), (input) => {
        const time = parseTimeOfDay(input);
        if (time === undefined) return;
        expect(time.hour).toBeLessThan(24);
        expect(time.minute).toBeLessThan(60);
        expect(parseTimeOfDay(formatTimeOfDay(time))).toEqual(time);
      }),
    );
  });
});

describe('canonicalTimeZone', () => {
  it('names the zones Intl knows as Intl spells them, and refuses others', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Olympus_Mons', '', '../etc', 'Europe/Paris; drop table', 'A'.repeat(1000)]) expect(canonicalTimeZone(bad)).toBeUndefined();
  });

  it('never throws, and what it accepts Intl accepts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1000 }), (input) => {
        const zone = canonicalTimeZone(input);
        if (zone !== undefined) expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
      }),
    );
  });

  it('offers zones by any part of their name, at most 25, for any query', () => {
    expect(timeZoneChoices('sao paulo')).toContain('America/Sao_Paulo');
    expect(timeZoneChoices('')).toHaveLength(25);
    fc.assert(
      fc.property(fc.string({ maxLength: 1000 }), (query) => {
        expect(timeZoneChoices(query).length).toBeLessThanOrEqual(25);
      }),
    );
  });
});

describe('nextOccurrence', () => {
  const at = (iso: string) => Date.parse(iso);

  it('takes a time skipped by the spring change after the jump, and a repeated one the first time', () => {
    // Paris, 29 March 2026: 02:00 → 03:00. 25 October 2026: 03:00 → 02:00.
    expect(new Date(nextOccurrence({ hour: 2, minute: 30 }, 'Europe/Paris', at('2026-03-28T12:00Z'))).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(nextOccurrence({ hour: 2, minute: 30 }, 'Europe/Paris', at('2026-10-24T12:00Z'))).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(nextOccurrence({ hour: 2, minute: 30 }, 'Europe/Paris', at('2026-10-25T00:30Z'))).toISOString()).toBe('2026-10-26T01:30:00.000Z');
    // New York, 8 March 2026: 09:00 is 14:00 UTC before, 13:00 after.
    expect(new Date(nextOccurrence({ hour: 9, minute: 0 }, 'America/New_York', at('2026-03-07T15:00Z'))).toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });

  it('is always later, within two days, and that time on the zone’s clocks unless a DST jump skipped it', () => {
    const zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom(...zones), fc.integer({ min: Date.UTC(2020, 0), max: Date.UTC(2035, 0) }), (hour, minute, zone, after) => {
        const next = nextOccurrence({ hour, minute }, zone, after);
        expect(next).toBeGreaterThan(after);
        expect(next - after).toBeLessThanOrEqual(2 * 86_400_000);
        const shown = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' }).format(next);
        const skipped = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' }).format(next - 3_600_000);
        if (shown !== formatTimeOfDay({ hour, minute })) expect(skipped).not.toBe(formatTimeOfDay({ hour, minute }));
      }),
    );
  });
});

describe('postNonce', () => {
  it('is at most 25 characters, and differs between occurrences', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: Date.UTC(4999, 11) }), (id, due) => {
        expect(postNonce(id, due).length).toBeLessThanOrEqual(25);
        expect(postNonce(id, due)).not.toBe(postNonce(id, due + 60_000));
      }),
    );
  });
});
