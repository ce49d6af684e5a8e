import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';

/** Small text helpers shared by the renderers: Discord's limits and readable numbers. */

export const EMBED_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
  embedsPerMessage: 10,
  content: 2000,
} as const;

/**
 * Cuts `text` to `max` characters at a word boundary when one is near, ending with an ellipsis. It
 * never cuts between the two halves of a surrogate pair (an emoji, a math letter): half of one is
 * not valid UTF-8, and Discord refuses the whole message.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > max * 0.8 ? cut.slice(0, lastSpace) : cut}…`;
}

/**
 * A wait as people say it, for every "try again in …" and queue note: exact seconds under two
 * minutes, then about so many minutes, "about an hour", about so many hours ("in about an hour"
 * reads better than "in 3600 seconds" when YGOPRODeck blocks us without saying for how long), in the
 * words of `messages`.
 */
export function humanDuration(ms: number, messages: Catalogue = en): string {
  const { durations } = messages;
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return durations.seconds(seconds);
  if (seconds < 50 * 60) return durations.minutes(Math.round(seconds / 60));
  if (seconds < 90 * 60) return durations.anHour;
  return durations.hours(Math.round(seconds / 3600));
}

/** A compact elapsed time for /status (`3d 4h 5m`). */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3_600);
  const minutes = Math.floor((totalSeconds % 3_600) / 60);
  const seconds = totalSeconds % 60;
  const parts = [days && `${days}d`, hours && `${hours}h`, minutes && `${minutes}m`, `${seconds}s`].filter(Boolean);
  return parts.slice(0, 3).join(' ');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** `13,703` in English, `13 703` in French: grouped the way `intlLocale` writes numbers. */
export function formatInteger(value: number, intlLocale = 'en-US'): string {
  let format = integerFormats.get(intlLocale);
  if (format === undefined) integerFormats.set(intlLocale, (format = new Intl.NumberFormat(intlLocale)));
  return format.format(value);
}

/**
 * One formatter per locale: `toLocaleString(locale)` builds a new one on every call (tens of µs),
 * which showed in the profile of twenty deck pictures drawn at once.
 */
const integerFormats = new Map<string, Intl.NumberFormat>();

/** A Discord timestamp tag, rendered in each viewer's own time zone. */
export function discordTimestamp(date: Date | number, style: 't' | 'T' | 'd' | 'D' | 'f' | 'F' | 'R' = 'f'): string {
  const ms = typeof date === 'number' ? date : date.getTime();
  return `<t:${Math.floor(ms / 1000)}:${style}>`;
}

/** Total characters Discord counts towards the 6,000 limit across a message's embeds. */
export function embedCharacterCount(embed: {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
  author?: { name: string };
}): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}

/**
 * Shrinks the longest texts (descriptions and field values) of a message's embeds until the total
 * fits Discord's 6,000-character limit. Titles, names and footers are left alone: they are short
 * and carry the identity of each embed.
 */
export function fitEmbedsToLimit<E extends APIEmbedLike>(embeds: E[], limit: number = EMBED_LIMITS.total): E[] {
  const fitted = embeds.map((embed) => ({ ...embed, fields: embed.fields?.map((field) => ({ ...field })) }));
  let excess = fitted.reduce((sum, embed) => sum + embedCharacterCount(embed), 0) - limit;
  while (excess > 0) {
    let longest: { get: () => string; set: (text: string) => void } | undefined;
    let longestLength = 0;
    for (const embed of fitted) {
      if ((embed.description?.length ?? 0) > longestLength) {
        longestLength = embed.description!.length;
        longest = { get: () => embed.description!, set: (text) => (embed.description = text) };
      }
      for (const field of embed.fields ?? []) {
        if (field.value.length > longestLength) {
          longestLength = field.value.length;
          longest = { get: () => field.value, set: (text) => (field.value = text) };
        }
      }
    }
    if (!longest || longestLength <= 16) break;
    const target = Math.max(16, longestLength - Math.max(excess, Math.ceil(longestLength / 4)));
    const shortened = truncate(longest.get(), target);
    excess -= longestLength - shortened.length;
    longest.set(shortened);
  }
  return fitted as E[];
}

interface APIEmbedLike {
  title?: string;
  description?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  author?: { name: string };
}

/** Discord's limits on select menus and their options. */
export const SELECT_LIMITS = { options: 25, label: 100, value: 100, description: 100, placeholder: 150, customId: 100 } as const;
/** Discord caps a button's label at 80 characters. */
export const BUTTON_LABEL_MAX = 80;
