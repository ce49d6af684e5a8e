import type { ChannelInfo } from '../command.js';
import type { WallpaperPurity } from '../services/wallhaven.js';

export type PurityDecision = { allowed: true } | { allowed: false; reason: string };

export const REFUSED_IN_DM = 'Sketchy and NSFW wallpapers are never shown in DMs. Ask in an age-restricted channel of a server.';
export const REFUSED_IN_CHANNEL =
  'Sketchy and NSFW wallpapers are only shown in age-restricted channels (and their threads). This one is not age-restricted.';
export const REFUSED_WITHOUT_KEY = 'NSFW wallpapers need a Wallhaven API key, and this bot has none configured.';

/**
 * Whether wallpapers of `purity` may be shown in `channel`. Enforced here, before any request and
 * again on every result, rather than trusted to Discord's client: SFW anywhere; sketchy only in an
 * age-restricted channel or a thread of one, never in a DM; NSFW likewise and only with an API key
 * (Wallhaven serves NSFW to keyed clients only). The reason is a sentence for the user.
 */
export function purityAllowed(purity: WallpaperPurity, channel: Pick<ChannelInfo, 'kind' | 'ageRestricted'>, hasKey: boolean): PurityDecision {
  if (purity === 'sfw') return { allowed: true };
  if (channel.kind === 'dm') return { allowed: false, reason: REFUSED_IN_DM };
  if (!channel.ageRestricted) return { allowed: false, reason: REFUSED_IN_CHANNEL };
  if (purity === 'nsfw' && !hasKey) return { allowed: false, reason: REFUSED_WITHOUT_KEY };
  return { allowed: true };
}
