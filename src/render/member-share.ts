import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { UpstreamName } from '../interaction/upstream-error.js';
import { humanDuration } from './format.js';

/**
 * The refusal when a member has spent their share of an upstream (`MemberShares`), in the member's language.
 */
export function shareSpentSentence(upstream: UpstreamName, limit: number, retryAfterMs: number, messages: Catalogue = en): string {
  if (upstream === 'wallhaven') return messages.wallpaper.slowDown(limit, humanDuration(retryAfterMs, messages));
  if (upstream === 'rdap') return messages.ops.whois.slowDown(limit, humanDuration(retryAfterMs, messages));
  const slowDown = upstream === 'geojs' ? messages.ip.slowDown : messages.card.slowDown;
  return slowDown(limit, humanDuration(retryAfterMs, messages));
}
