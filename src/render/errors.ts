import { UserError } from '../errors.js';
import { UpstreamError, upstreamLabel } from '../services/upstream-error.js';
import { humanDuration } from './format.js';

export const GENERIC_FAILURE = 'Something went wrong on our side. It has been logged; please try again in a moment.';

function retryIn(ms: number | undefined, fallback: string): string {
  return ms === undefined ? fallback : `in ${humanDuration(ms)}`;
}

/**
 * The one short, plain sentence a user sees for a failure. Details never reach the user: they go
 * to the log, next to the interaction id.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof UserError) return error.message;
  if (error instanceof UpstreamError) {
    const label = upstreamLabel(error.upstream);
    switch (error.kind) {
      case 'unavailable':
        return `${label} is unavailable right now, try again in a minute.`;
      case 'rate_limited':
        return `${label} asked us to slow down; try again ${retryIn(error.retryAfterMs, 'in a minute')}.`;
      case 'busy':
        return `Almanac is busy with ${label} requests; try again ${retryIn(error.retryAfterMs, 'in a few seconds')}.`;
      case 'bad_response':
        return `${label} sent an answer we could not read; try again later.`;
      case 'unauthorized':
        return `${label} needs an API key for that, and none is configured.`;
      case 'not_found':
        return `${label} has nothing matching that.`;
      case 'invalid_input':
        return `${label} did not accept that input.`;
    }
  }
  return GENERIC_FAILURE;
}
