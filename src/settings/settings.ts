import { UI_LOCALES, type UiLocale } from '../i18n/catalogue.js';
import { PURITY_LEVELS } from '../wallpaper/search.js';
import type { WallpaperPurity } from '../wallpaper/wallpaper.js';

/**
 * What a server, a channel and a user chose with `/settings`, and what applies where an answer is
 * given. Pure: the stored rows come in (src/services/settings/ reads and caches them), the answer's
 * settings come out. A null choice means "not chosen here": the next scope down applies (channel,
 * then server, then the member's own choice, then what Discord says).
 */

/** Who `/ip lookup` and `/ip time` answer by default (their `public` option still wins). */
export type IpAnswers = 'public' | 'private';

/** What a channel may choose (`/ip` answers are server-wide only). */
export interface ChannelChoices {
  language: UiLocale | null;
  inlineCards: boolean | null;
  wallpaperPurity: WallpaperPurity | null;
}

/** What a server chose: a channel's choices, for the whole server, and who `/ip` answers. */
export interface GuildChoices extends ChannelChoices {
  ipAnswers: IpAnswers | null;
}

/** What a member chose for themself (in DMs and user installs). */
export interface UserChoices {
  language: UiLocale | null;
  ipAnswers: IpAnswers | null;
}

/** Every choice that bears on one place: a server's, its channel's (a thread's own, then its parent's) and the member's. */
export interface StoredChoices {
  guild: GuildChoices | null;
  /** The channel's own choices, then (for a thread) its parent channel's, most specific first. */
  channels: readonly (ChannelChoices | null)[];
  user: UserChoices | null;
}

/** Where a value that applies comes from, for `/settings show`. */
export type ChoiceSource = 'channel' | 'server' | 'user' | 'default';

export interface Applied<T> {
  value: T;
  from: ChoiceSource;
}

/** What applies in one place. */
export interface EffectiveSettings {
  /** The language of public answers and inline cards; null: what Discord says (the member's locale, a server's preferred one). */
  publicLanguage: Applied<UiLocale | null>;
  /** The language of answers only the member sees: their own choice, else what Discord says. */
  ownLanguage: Applied<UiLocale | null>;
  inlineCards: Applied<boolean>;
  /** Null: each `/ip` subcommand's own default (lookup private, time public). */
  ipAnswers: Applied<IpAnswers | null>;
  /** The highest purity `/wallpaper` may show here (never above what the channel itself allows); null: no ceiling. */
  purityCeiling: Applied<WallpaperPurity | null>;
}

/** Nothing chosen anywhere: Almanac as it behaves without settings. */
export const NO_CHOICES: StoredChoices = { guild: null, channels: [], user: null };

function firstChosen<T>(candidates: readonly [T | null | undefined, ChoiceSource][], fallback: T): Applied<T> {
  for (const [value, from] of candidates) if (value !== null && value !== undefined) return { value, from };
  return { value: fallback, from: 'default' };
}

/** The most specific channel choice of `key` (a thread's own, then its parent's). */
function channelChoice<K extends keyof ChannelChoices>(stored: StoredChoices, key: K): ChannelChoices[K] | null {
  for (const channel of stored.channels) {
    const value = channel?.[key];
    if (value !== null && value !== undefined) return value;
  }
  return null;
}

/**
 * What applies: public answers follow the channel, then the server, then the member's own
 * language; the member's private answers keep their own. `/ip` answers follow the server, then the
 * member. A purity ceiling is the channel's when it chose one, else the server's.
 */
export function resolveSettings(stored: StoredChoices): EffectiveSettings {
  // Most places chose nothing: one answer for all of them, not five objects an interaction.
  if (stored === NO_CHOICES) return (nothingChosen ??= frozen(resolveChoices(NO_CHOICES)));
  return resolveChoices(stored);
}

let nothingChosen: EffectiveSettings | undefined;

/** Shared by every caller, so nobody may change it. */
function frozen(settings: EffectiveSettings): EffectiveSettings {
  for (const applied of Object.values(settings)) Object.freeze(applied);
  return Object.freeze(settings);
}

function resolveChoices(stored: StoredChoices): EffectiveSettings {
  const { guild, user } = stored;
  const ownLanguage = firstChosen<UiLocale | null>([[user?.language, 'user']], null);
  return {
    publicLanguage: firstChosen<UiLocale | null>(
      [
        [channelChoice(stored, 'language'), 'channel'],
        [guild?.language, 'server'],
        [user?.language, 'user'],
      ],
      null,
    ),
    ownLanguage,
    inlineCards: firstChosen<boolean>(
      [
        [channelChoice(stored, 'inlineCards'), 'channel'],
        [guild?.inlineCards, 'server'],
      ],
      true,
    ),
    ipAnswers: firstChosen<IpAnswers | null>(
      [
        [guild?.ipAnswers, 'server'],
        [user?.ipAnswers, 'user'],
      ],
      null,
    ),
    purityCeiling: firstChosen<WallpaperPurity | null>(
      [
        [channelChoice(stored, 'wallpaperPurity'), 'channel'],
        [guild?.wallpaperPurity, 'server'],
      ],
      null,
    ),
  };
}

/** Whether `/ip` answers privately: the member's `public` option wins, then the settings, then the subcommand's own default. */
export function ipAnswersPrivately(publicOption: boolean | null, settings: IpAnswers | null, privateByDefault: boolean): boolean {
  if (publicOption !== null) return !publicOption;
  if (settings !== null) return settings === 'private';
  return privateByDefault;
}

/** A language as `/settings` receives it (`en`, `pt-BR`, `default` to clear); undefined when it is none of them. */
export function parseLanguageChoice(value: string): UiLocale | null | undefined {
  if (value === DEFAULT_CHOICE) return null;
  return (UI_LOCALES as readonly string[]).includes(value) ? (value as UiLocale) : undefined;
}

/** A purity ceiling as `/settings` receives it (`default` clears it). */
export function parsePurityChoice(value: string): WallpaperPurity | null | undefined {
  if (value === DEFAULT_CHOICE) return null;
  return (PURITY_LEVELS as readonly string[]).includes(value) ? (value as WallpaperPurity) : undefined;
}

/** `/ip` answers as `/settings` receives them (`default` clears the choice). */
export function parseIpAnswersChoice(value: string): IpAnswers | null | undefined {
  if (value === DEFAULT_CHOICE) return null;
  return value === 'public' || value === 'private' ? value : undefined;
}

/** The choice value that clears a setting, so the next scope's applies again. */
export const DEFAULT_CHOICE = 'default';

/** Each language under its own name, whatever the reader's language. */
export const LANGUAGE_NAMES: Readonly<Record<UiLocale, string>> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
};
