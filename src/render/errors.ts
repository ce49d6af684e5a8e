import { MemberShareSpent, UserError } from '../interaction/errors.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import { UpstreamError, upstreamLabel } from '../interaction/upstream-error.js';
import { humanDuration } from './format.js';
import { shareSpentSentence } from './member-share.js';


function retryIn(ms: number | undefined, fallback: string, messages: Catalogue): string {
  return ms === undefined ? fallback : messages.errors.inDuration(humanDuration(ms, messages));
}

/**
 * The one short, plain sentence a user sees for a failure, in the user's language. Details never
 * reach the user: they go to the log, next to the interaction id.
 */
export function describeFailure(error: unknown, messages: Catalogue = en): string {
  if (error instanceof UserError) return error.textIn(messages);
  if (error instanceof MemberShareSpent) return shareSpentSentence(error.upstream, error.limit, error.retryAfterMs, messages);
  const { errors } = messages;
  if (error instanceof UpstreamError) {
    const label = upstreamLabel(error.upstream);
    switch (error.kind) {
      case 'unavailable':
        return errors.unavailable(label);
      case 'rate_limited':
        return errors.rateLimited(label, retryIn(error.retryAfterMs, errors.inAMinute, messages));
      case 'busy':
        return errors.busy(label, retryIn(error.retryAfterMs, errors.inAFewSeconds, messages));
      case 'bad_response':
        return errors.badResponse(label);
      case 'unauthorized':
        return errors.unauthorized(label);
      case 'not_found':
        return errors.notFound(label);
      case 'invalid_input':
        return errors.invalidInput(label);
    }
  }
  return errors.generic;
}
