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

/** One interaction as its outcome line names it; `started` is its `performance.now()`. */
export interface OutcomeEntry {
  interactionId: string;
  command: string;
  kind: string;
  /** Gateway mode only: the shard the interaction came on. */
  shardId?: number;
  started: number;
}

/**
 * Where outcome lines go: `interaction`, the interaction's own logger (made on first use), writes the failures (their
 * error objects are redacted by path like any line); `answers` writes the others, whose fields are
 * ids, names and numbers alone, so that path redaction has nothing to do on them (the secret
 * scrubbing of every serialized line still runs). Redaction walks each line's object: it was the
 * largest part of logging an answer, which happens for every interaction.
 */
export interface OutcomeLogs {
  interaction: () => Logger;
  answers: Logger;
}

/** A logger whose lines skip path redaction: for lines built only of ids, names and numbers. */
export function unredactedLines(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/** Counts, times and logs one finished interaction; `error` is what it failed with, if it did. */
export function recordOutcome(metrics: Metrics, logs: OutcomeLogs, entry: OutcomeEntry, error?: unknown): void {
  const latencyMs = Math.round(performance.now() - entry.started);
  const outcome: Outcome = error === undefined ? 'ok' : outcomeOf(error);
  metrics.interactions.labels(entry.command, entry.kind, outcome).inc();
  metrics.interactionLatency.labels(entry.command, entry.kind).observe(latencyMs / 1000);
  if (outcome === 'error') {
    logs.interaction().error({ err: error, outcome, latencyMs }, 'interaction failed');
    return;
  }
  // The interaction logger's bindings, in its order, then the outcome: the line reads as before.
  const { interactionId, command, kind, shardId } = entry;
  const line = { interactionId, command, kind, ...(shardId === undefined ? {} : { shardId }), outcome, latencyMs };
  if (error !== undefined) logs.answers.info({ ...line, reason: (error as Error).message }, 'interaction refused');
  else logs.answers.info(line, 'interaction answered');
}
