import type { ChannelInfo } from '../interaction/context.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import { purityUpTo, type PurityScope } from './search.js';
import type { WallpaperPurity } from './wallpaper.js';

type PurityDecision = { allowed: true } | { allowed: false; reason: string };


/**
 * Whether wallpapers of `purity` may be shown in `channel`. Enforced here, before any request and
 * again on every result, rather than trusted to Discord's client: SFW anywhere; sketchy only in an
 * age-restricted channel or a thread of one, never in a DM or group DM; NSFW likewise and only with
 * an API key (Wallhaven serves NSFW to keyed clients only). The reason is a sentence for the user,
 * in the language of `messages`.
 */
export function purityAllowed(
  purity: WallpaperPurity,
  channel: Pick<ChannelInfo, 'kind' | 'ageRestricted'>,
  hasKey: boolean,
  messages: Catalogue = en,
): PurityDecision {
  if (purity === 'sfw') return { allowed: true };
  if (channel.kind === 'dm') return { allowed: false, reason: messages.wallpaper.refusedInDm };
  if (!channel.ageRestricted) return { allowed: false, reason: messages.wallpaper.refusedInChannel };
  if (purity === 'nsfw' && !hasKey) return { allowed: false, reason: messages.wallpaper.refusedWithoutKey };
  return { allowed: true };
}

/**
 * Every purity `channel` may show, as one scope: what listings the member did not filter themselves
 * ask for ("More like this", a tag, a collection), so that nothing is requested that could not be shown.
 */
export function channelPurityScope(channel: Pick<ChannelInfo, 'kind' | 'ageRestricted'>, hasKey: boolean): PurityScope {
  const highest = (['nsfw', 'sketchy'] as const).find((purity) => purityAllowed(purity, channel, hasKey).allowed) ?? 'sfw';
  return purityUpTo(highest);
}
