import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { UpstreamName } from './upstream-error.js';

/** A sentence picked from the user's message catalogue. */
export type LocalizedText = (messages: Catalogue) => string;

/**
 * An error whose message is written for the person who ran the command: a short plain sentence.
 * Given as a catalogue pick, it is shown in the user's language (its `message`, for the logs, is the
 * English one). Anything else that escapes a handler is logged in full and the user gets a generic
 * sentence.
 */
export class UserError extends Error {
  private readonly localized: LocalizedText | undefined;

  constructor(message: string | LocalizedText, options?: ErrorOptions) {
    super(typeof message === 'string' ? message : message(en), options);
    this.name = 'UserError';
    this.localized = typeof message === 'string' ? undefined : message;
  }

  /** The sentence in the language of `messages` (as written, when it was written in one language only). */
  textIn(messages: Catalogue): string {
    return this.localized?.(messages) ?? this.message;
  }
}

/**
 * A refusal because the member has spent their share of an upstream (`MemberShares`): nothing was
 * sent. It carries the facts, not a sentence: render words it (`describeFailure`) in the member's
 * language, and it is answered privately like any `UserError`.
 */
export class MemberShareSpent extends Error {
  constructor(
    readonly upstream: UpstreamName,
    /** The share: requests (GeoJS: addresses) per window. */
    readonly limit: number,
    /** When the share is whole enough again for one more request. */
    readonly retryAfterMs: number,
  ) {
    super(`${upstream} member share of ${limit} spent; the next request fits in ${retryAfterMs} ms`);
    this.name = 'MemberShareSpent';
  }
}
