import type { UiLocale } from '../i18n/catalogue.js';
import type { WallpaperPurity } from '../wallpaper/wallpaper.js';

/** What a channel chose for its scheduled posts; absent: nothing chosen there. */
export interface ChannelPostPreferences {
  /** The language of its public answers (channel, then server). */
  locale?: UiLocale;
  /** The highest wallpaper purity the channel's settings allow; it only narrows what the channel allows. */
  purityCeiling?: WallpaperPurity;
}

/**
 * Where the scheduler learns a channel's settings (`/settings`, wired by the app). A port, so that
 * the scheduler knows nothing of how settings are stored or cached.
 */
export interface ChannelPreferences {
  forChannel(guildId: string, channelId: string): Promise<ChannelPostPreferences>;
}

/** No settings: English posts, and only what the channel itself allows (SFW unless age-restricted). */
export const NO_PREFERENCES: ChannelPreferences = { forChannel: async () => ({}) };
