import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { UpstreamName } from '../interaction/upstream-error.js';
import { humanDuration } from './format.js';

/** The upstreams whose refusal is still English only. */
type EnglishOnly = Exclude<UpstreamName, 'wallhaven' | 'rdap'>;

const SPENT: Record<EnglishOnly, (limit: number) => string> = {
    geojs: (limit) => `GeoJS lookups are shared by everyone here, and you have looked up your ${limit} new addresses for now`,
  ygoprodeck: (limit) => `YGOPRODeck downloads are shared by everyone here, and you have used your ${limit} for now`,
};

const FREE: Record<EnglishOnly, string> = {
  geojs: 'addresses already looked up stay free',
  ygoprodeck: 'art already downloaded stays free',
};

/**
 * The refusal when a member has spent their share of an upstream (`MemberShares`). Wallhaven's and RDAP's are in
 * the member's language; GeoJS's and YGOPRODeck's are English for now.
 */
export function shareSpentSentence(upstream: UpstreamName, limit: number, retryAfterMs: number, messages: Catalogue = en): string {
  if (upstream === 'wallhaven') return messages.wallpaper.slowDown(limit, humanDuration(retryAfterMs, messages));
  if (upstream === 'rdap') return messages.ops.whois.slowDown(limit, humanDuration(retryAfterMs, messages));
  return `Slow down: ${SPENT[upstream](limit)}. Try again in ${humanDuration(retryAfterMs)} (${FREE[upstream]}).`;
}
