import type { ChannelInfo } from '../interaction/context.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import { PURITY_LEVELS, purityUpTo, type PurityScope } from './search.js';
import type { WallpaperPurity } from './wallpaper.js';

type PurityDecision = { allowed: true } | { allowed: false; reason: string };


/** Whether `purity` is within `ceiling` (absent: no ceiling). */
export function withinCeiling(purity: WallpaperPurity, ceiling: WallpaperPurity | undefined): boolean {
  return ceiling === undefined || PURITY_LEVELS.indexOf(purity) <= PURITY_LEVELS.indexOf(ceiling);
}

/**
 * Whether wallpapers of `purity` may be shown in `channel`. Enforced here, before any request and
 * again on every result, rather than trusted to Discord's client: SFW anywhere; sketchy only in an
 * age-restricted channel or a thread of one, never in a DM or group DM; NSFW likewise and only with
 * an API key (Wallhaven serves NSFW to keyed clients only); and never above the ceiling the
 * server's settings set for the channel (it only narrows). The reason is a sentence for the user,
 * in the language of `messages`.
 */
export function purityAllowed(
  purity: WallpaperPurity,
  channel: Pick<ChannelInfo, 'kind' | 'ageRestricted' | 'purityCeiling'>,
  hasKey: boolean,
  messages: Catalogue = en,
): PurityDecision {
  if (purity === 'sfw') return { allowed: true };
  if (channel.kind === 'dm') return { allowed: false, reason: messages.wallpaper.refusedInDm };
  if (!channel.ageRestricted) return { allowed: false, reason: messages.wallpaper.refusedInChannel };
  if (!withinCeiling(purity, channel.purityCeiling)) return { allowed: false, reason: messages.wallpaper.refusedBySettings };
  if (purity === 'nsfw' && !hasKey) return { allowed: false, reason: messages.wallpaper.refusedWithoutKey };
  return { allowed: true };
}

/**
 * Every purity `channel` may show, as one scope: what listings the member did not filter themselves
 * ask for ("More like this", a tag, a collection), so that nothing is requested that could not be shown.
 */
export function channelPurityScope(channel: Pick<ChannelInfo, 'kind' | 'ageRestricted' | 'purityCeiling'>, hasKey: boolean): PurityScope {
  const highest = (['nsfw', 'sketchy'] as const).find((purity) => purityAllowed(purity, channel, hasKey).allowed) ?? 'sfw';
  return purityUpTo(highest);
}
