interface ZoneTime {
  /** IANA zone name as given. */
  zone: string;
  /** Local wall-clock time there, 24-hour `HH:MM`. */
  time: string;
  /** Local date there in the reader's language, e.g. `Sun 8 Mar`, `dim. 8 mars`. */
  date: string;
  /** Offset from UTC in minutes at that instant (DST included). */
  offsetMinutes: number;
  /** `UTC+01:00`, `UTC−06:00` (a real minus sign), `UTC±00:00` for UTC. */
  offsetLabel: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZoneName: 'longOffset',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function dateFormatterFor(zone: string, intlLocale: string): Intl.DateTimeFormat {
  const key = `${zone} ${intlLocale}`;
  let formatter = dateFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(intlLocale, { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short' });
    dateFormatters.set(key, formatter);
  }
  return formatter;
}

/** True when the platform's time zone database knows `zone`. */
function isKnownTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The answers of the current minute, by zone and locale: what `zoneTime` says changes at most once a
 * minute (offsets change on the minute too), while formatting it through ICU costs more than the
 * rest of an `/ip time` answer. Forgotten as soon as the minute changes, so it holds at most the
 * zones asked about within one minute.
 */
let minuteAnswers = { minute: Number.NaN, answers: new Map<string, ZoneTime | null>() };

/**
 * The local time and UTC offset in `zone` at `instant`, from the platform's time zone data (ICU), so
 * it is right on both sides of a DST change. Returns null for a zone the platform does not know.
 */
export function zoneTime(zone: string, instant: Date, intlLocale = 'en-GB'): ZoneTime | null {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minuteAnswers.minute !== minute) minuteAnswers = { minute, answers: new Map() };
  const key = `${zone} ${intlLocale}`;
  const remembered = minuteAnswers.answers.get(key);
  if (remembered !== undefined) return remembered;
  const answer = formatZoneTime(zone, instant, intlLocale);
  minuteAnswers.answers.set(key, answer && Object.freeze(answer));
  return answer;
}

function formatZoneTime(zone: string, instant: Date, intlLocale: string): ZoneTime | null {
  if (!isKnownTimeZone(zone)) return null;
  const parts = Object.fromEntries(formatterFor(zone).formatToParts(instant).map((part) => [part.type, part.value]));
  const offsetText = parts.timeZoneName ?? 'GMT';
  const match = /GMT([+-−])(\d{2}):(\d{2})/.exec(offsetText);
  const offsetMinutes = match ? (match[1] === '+' ? 1 : -1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  const sign = offsetMinutes > 0 ? '+' : offsetMinutes < 0 ? '−' : '±';
  return {
    zone,
    time: `${parts.hour}:${parts.minute}`,
    date: intlLocale === 'en-GB' ? `${parts.weekday} ${parts.day} ${parts.month}` : dateFormatterFor(zone, intlLocale).format(instant),
    offsetMinutes,
    offsetLabel: `UTC${sign}${hours}:${minutes}`,
  };
}
