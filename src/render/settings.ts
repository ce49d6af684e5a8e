import type { Catalogue } from '../i18n/catalogue.js';
import type { UiLocale } from '../i18n/catalogue.js';
import type { Reply } from '../interaction/reply.js';
import { LANGUAGE_NAMES, type Applied, type ChoiceSource, type EffectiveSettings, type IpAnswers } from '../settings/settings.js';
import type { WallpaperPurity } from '../wallpaper/wallpaper.js';

/** `/settings`' answers: only the member sees them, in their own language. */

/** One choice just stored. */
export type SavedSetting =
  | { setting: 'language' | 'yourLanguage'; language: UiLocale | null }
  | { setting: 'inlineCards'; enabled: boolean }
  | { setting: 'ipAnswers'; ipAnswers: IpAnswers | null }
  | { setting: 'purity'; purity: WallpaperPurity | null };

/** Whose choice: the server's, one channel's (mentioned), or the member's own. */
export type SettingPlace = { kind: 'server' } | { kind: 'channel'; channelId: string } | { kind: 'user' };

const PURITY_NAMES: Readonly<Record<WallpaperPurity, string>> = { sfw: 'SFW', sketchy: 'sketchy', nsfw: 'NSFW' };

function languageText(language: UiLocale | null, t: Catalogue): string {
  return language === null ? t.settings.defaultLanguage : LANGUAGE_NAMES[language];
}

function ipText(ipAnswers: IpAnswers | null, t: Catalogue): string {
  return ipAnswers === null ? t.settings.ipDefault : t.settings[ipAnswers];
}

function purityText(purity: WallpaperPurity | null, t: Catalogue): string {
  return purity === null ? t.settings.noCeiling : PURITY_NAMES[purity];
}

function placeText(place: SettingPlace, t: Catalogue): string {
  if (place.kind === 'server') return t.settings.thisServer;
  return place.kind === 'user' ? t.settings.you : `<#${place.channelId}>`;
}

export function renderSettingSaved(saved: SavedSetting, place: SettingPlace, t: Catalogue): Reply {
  const [label, value] =
    saved.setting === 'inlineCards'
      ? [t.settings.inlineCards, saved.enabled ? t.settings.on : t.settings.off]
      : saved.setting === 'ipAnswers'
        ? [t.settings.ipAnswers, ipText(saved.ipAnswers, t)]
        : saved.setting === 'purity'
          ? [t.settings.purity, purityText(saved.purity, t)]
          : [t.settings[saved.setting], languageText(saved.language, t)];
  return { content: t.settings.saved(label, placeText(place, t), value), ephemeral: true };
}

const SOURCE_KEYS: Readonly<Record<ChoiceSource, 'fromChannel' | 'fromServer' | 'fromUser' | 'fromDefault'>> = {
  channel: 'fromChannel',
  server: 'fromServer',
  user: 'fromUser',
  default: 'fromDefault',
};

function line<T>(label: string, applied: Applied<T>, text: (value: T) => string, t: Catalogue): string {
  return `**${label}**: ${text(applied.value)} (${t.settings[SOURCE_KEYS[applied.from]]})`;
}

/** What applies in a channel of a server (every setting), or for the member in DMs and user installs (theirs). */
export function renderSettingsShown(effective: EffectiveSettings, place: Exclude<SettingPlace, { kind: 'server' }>, t: Catalogue): Reply {
  const lines =
    place.kind === 'user'
      ? [
          t.settings.showTitle(t.settings.hereInDm),
          line(t.settings.yourLanguage, effective.ownLanguage, (value) => languageText(value, t), t),
          line(t.settings.ipAnswers, effective.ipAnswers, (value) => ipText(value, t), t),
        ]
      : [
          t.settings.showTitle(placeText(place, t)),
          line(t.settings.language, effective.publicLanguage, (value) => languageText(value, t), t),
          line(t.settings.inlineCards, effective.inlineCards, (value) => (value ? t.settings.on : t.settings.off), t),
          line(t.settings.ipAnswers, effective.ipAnswers, (value) => ipText(value, t), t),
          line(t.settings.purity, effective.purityCeiling, (value) => purityText(value, t), t),
        ];
  return { content: lines.join('\n'), ephemeral: true };
}
