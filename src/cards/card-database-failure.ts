/** The last download attempt failed: why, when, and when the next one is due. */
export interface CardDatabaseFailure {
  /** `UpstreamError` kind (e.g. `unavailable`), or `error`. */
  reason: string;
  at: number;
  /** Null while no next attempt is scheduled (closing, or the attempt is being retried right now). */
  nextAttemptAt: number | null;
}
