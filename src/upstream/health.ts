import { isUpstreamError, type UpstreamErrorKind } from '../interaction/upstream-error.js';

const ANSWERS_NOT_FAILURES: ReadonlySet<UpstreamErrorKind> = new Set(['not_found', 'invalid_input', 'unauthorized']);


/** Records the outcome of upstream requests for /status and the readiness of each service. */
export class HealthTracker {
  lastSuccessAt: number | null = null;
  lastFailureAt: number | null = null;
  lastFailure: string | null = null;
  lastLatencyMs: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Times `work` and records its outcome; rethrows failures. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await work();
      this.lastSuccessAt = this.now();
      this.lastLatencyMs = Math.round(performance.now() - started);
      return result;
    } catch (error) {
      // Only the upstream's own failures count: a refused input, a missing item or a missing key
      // says nothing about its health.
      if (!isUpstreamError(error) || !ANSWERS_NOT_FAILURES.has(error.kind)) {
        this.lastFailureAt = this.now();
        this.lastFailure = isUpstreamError(error) ? error.kind : 'error';
      }
      throw error;
    }
  }
}
