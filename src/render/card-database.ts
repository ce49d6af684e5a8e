import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { CardDatabaseFailure } from '../cards/card-database-failure.js';
import { humanDuration } from './format.js';

/** `CardDatabaseFailure.reason` (an `UpstreamError` kind) → the catalogue's words for it. */
const REASONS: Readonly<Record<string, keyof Catalogue['card']['databaseFailure']>> = {
  unavailable: 'unavailable',
  rate_limited: 'rateLimited',
  bad_response: 'badResponse',
};

/**
 * What card commands say while there is no card database because its download failed, instead of
 * waiting for a download that is not happening: the cause and when the next attempt is, in the
 * words of `messages`.
 */
export function cardDatabaseFailureMessage(failure: CardDatabaseFailure, now: number, messages: Catalogue = en): string {
  const labels = messages.card;
  const reason = labels.databaseFailure[REASONS[failure.reason] ?? 'other'];
  const next = failure.nextAttemptAt === null ? labels.databaseRetryingNow : labels.databaseNextAttempt(humanDuration(failure.nextAttemptAt - now, messages));
  return labels.databaseFailed(reason, next);
}

/** Why there are no cards: a failed download (with its next attempt), else a load still under way. */
export function cardDatabaseMissing(failure: CardDatabaseFailure | null, now: number, messages: Catalogue = en): string {
  return failure ? cardDatabaseFailureMessage(failure, now, messages) : messages.card.databaseLoading;
}
