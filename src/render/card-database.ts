import type { CardDatabaseFailure } from '../services/card-database.js';
import { humanDuration } from './format.js';

const REASONS: Record<string, string> = {
  unavailable: 'YGOPRODeck could not be reached',
  rate_limited: 'YGOPRODeck asked us to slow down',
  bad_response: 'YGOPRODeck sent a download we could not use',
};

/**
 * What card commands say while there is no card database because its download failed, instead of
 * waiting for a download that is not happening: the cause and when the next attempt is.
 */
export function cardDatabaseFailureMessage(failure: CardDatabaseFailure, now: number): string {
  const reason = REASONS[failure.reason] ?? 'its download failed';
  const next = failure.nextAttemptAt === null ? 'it is being retried now' : `the next attempt is in ${humanDuration(failure.nextAttemptAt - now)}`;
  return `The card database is not available yet: ${reason}, and ${next}. Try again after that.`;
}
