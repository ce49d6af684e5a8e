import { UpstreamError } from '../../interaction/upstream-error.js';
import { isHtml, parseRetryAfter, type UpstreamResponse } from '../../upstream/http.js';
import type { UpstreamLimiter } from '../../upstream/limiter.js';
import { apiError } from './ygoprodeck-answers.js';
import { YGOPRODECK_CIRCUIT } from './ygoprodeck-limits.js';

interface QueuedTicket {
  abandon(error: UpstreamError): void;
}

/**
 * YGOPRODeck's circuit breaker: a response that looks like a block (429, 403, an HTML page) or an
 * outage (5xx) pauses the upstream's limiter, and fails at once every request still waiting in it,
 * so nothing is sent until the pause ends (an IP ban lasts an hour; retrying into it renews it).
 */
export class YgoprodeckCircuit {
  private readonly queued = new Set<QueuedTicket>();

  constructor(private readonly limiter: UpstreamLimiter) {}

  /**
   * Schedules a job, and lets it be abandoned while it waits: when the circuit opens, every queued
   * caller gets the error at once (rather than waiting out an hour-long pause) and its job, when the
   * limiter finally runs it, sends nothing.
   */
  async throughLimiter<T>(job: () => Promise<T>): Promise<T> {
    let ticket!: QueuedTicket;
    const abandoned = new Promise<never>((_resolve, reject) => {
      ticket = { abandon: reject };
    });
    this.queued.add(ticket);
    try {
      return await Promise.race([
        this.limiter.schedule(async () => {
          if (!this.queued.delete(ticket)) return undefined as never;
          return job();
        }),
        abandoned,
      ]);
    } finally {
      this.queued.delete(ticket);
    }
  }

  check(response: UpstreamResponse, resource: 'api' | 'image'): void {
    const { status } = response;
    if (status === 429 || status === 403) {
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], YGOPRODECK_CIRCUIT.blockedMs, {
        minMs: YGOPRODECK_CIRCUIT.minBlockMs,
        maxMs: YGOPRODECK_CIRCUIT.maxBlockMs,
      });
      throw this.openCircuit(retryAfterMs, 'blocked', 'rate_limited', `YGOPRODeck answered ${status}: probably blocked`, status);
    }
    if (status >= 500) {
      throw this.openCircuit(YGOPRODECK_CIRCUIT.unavailableMs, 'unavailable', 'unavailable', `YGOPRODeck answered ${status}`, status);
    }
    if (status === 404) {
      // A missing image is an ordinary miss; a missing API route means a misconfigured base URL.
      throw resource === 'image'
        ? new UpstreamError('ygoprodeck', 'not_found', 'no such card image', { status })
        : new UpstreamError('ygoprodeck', 'bad_response', 'YGOPRODeck has no such API route', { status });
    }
    if (isHtml(response)) {
      // A 2xx/4xx HTML page in place of JSON or an image is a block or challenge page.
      throw this.openCircuit(YGOPRODECK_CIRCUIT.blockedMs, 'blocked', 'unavailable', `YGOPRODeck answered ${status} with an HTML page`, status);
    }
    if (status === 400) throw apiError(response);
    if (status !== 200) throw new UpstreamError('ygoprodeck', 'bad_response', `YGOPRODeck answered ${status}`, { status });
  }

  private openCircuit(ms: number, reason: string, kind: 'rate_limited' | 'unavailable', message: string, status: number): UpstreamError {
    this.limiter.pause(ms, reason);
    const error = new UpstreamError('ygoprodeck', kind, message, { status, retryAfterMs: ms });
    const waiting = [...this.queued];
    this.queued.clear();
    for (const ticket of waiting) ticket.abandon(new UpstreamError('ygoprodeck', kind, `YGOPRODeck circuit open (${reason})`, { retryAfterMs: ms }));
    return error;
  }
}
