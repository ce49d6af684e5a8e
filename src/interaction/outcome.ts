import type { Logger } from 'pino';
import { MemberShareSpent, UserError } from './errors.js';
import type { Metrics } from '../runtime/metrics.js';
import { UpstreamError } from './upstream-error.js';

type Outcome = 'ok' | 'user_error' | 'upstream_error' | 'error';

function outcomeOf(error: unknown): Outcome {
  // A spent member share is the member's doing, like a mistyped option.
  if (error instanceof UserError || error instanceof MemberShareSpent) return 'user_error';
  if (error instanceof UpstreamError) return 'upstream_error';
  return 'error';
}

/** Counts, times and logs one finished interaction; `error` is what it failed with, if it did. */
export function recordOutcome(
  metrics: Metrics,
  log: Logger,
  entry: { command: string; kind: string; started: number },
  error?: unknown,
): void {
  const latencyMs = Math.round(performance.now() - entry.started);
  const outcome: Outcome = error === undefined ? 'ok' : outcomeOf(error);
  metrics.interactions.labels(entry.command, entry.kind, outcome).inc();
  metrics.interactionLatency.labels(entry.command, entry.kind).observe(latencyMs / 1000);
  if (outcome === 'error') log.error({ err: error, outcome, latencyMs }, 'interaction failed');
  else if (error !== undefined) log.info({ outcome, latencyMs, reason: (error as Error).message }, 'interaction refused');
  else log.info({ outcome, latencyMs }, 'interaction answered');
}
