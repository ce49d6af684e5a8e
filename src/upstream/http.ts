import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { Metrics } from '../runtime/metrics.js';
import { USER_AGENT } from '../runtime/version.js';
import { UpstreamError, type UpstreamName } from '../interaction/upstream-error.js';
import { readBoundedBody } from './bounded-body.js';

export interface HttpTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

/**
 * Defaults short enough for Discord's deadlines: a deferred interaction may wait, but an upstream
 * that has not sent headers in 5 s is not going to help the user (undici's default is 300 s).
 */
const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 3_000, headersMs: 5_000, bodyMs: 10_000 };

export function createUpstreamAgent(timeouts: HttpTimeouts = DEFAULT_TIMEOUTS, connections = 8): Agent {
  return new Agent({
    connections,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connect: { timeout: timeouts.connectMs },
  });
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  body: Buffer;
}

export interface UpstreamHttpOptions {
  upstream: UpstreamName;
  baseUrl: string;
  /** Every request URL must start with this path (e.g. `/api/v1/`): nothing user-supplied escapes it. */
  pathPrefixes: string[];
  dispatcher?: Dispatcher;
  /** Extra request headers (the Wallhaven key travels here, never in a URL). */
  headers?: Record<string, string>;
  timeouts?: HttpTimeouts;
  /** Largest body accepted, in bytes; bigger bodies are cut off and treated as a bad response. */
  maxBodyBytes?: number;
  metrics?: Metrics;
}

/**
 * The one HTTP path to an upstream: builds URLs that provably stay on its origin and path prefix,
 * sends GETs with our User-Agent, always consumes or discards the body, and turns transport
 * failures into `UpstreamError`s. It never follows redirects (undici `request` does not), so a
 * header can never be forwarded to another origin.
 */
export class UpstreamHttp {
  readonly upstream: UpstreamName;
  readonly origin: string;
  private readonly base: URL;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly options: UpstreamHttpOptions;

  constructor(options: UpstreamHttpOptions) {
    this.options = options;
    this.upstream = options.upstream;
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.origin = this.base.origin;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createUpstreamAgent(options.timeouts);
  }

  /**
   * Builds `base + path?query`. `path` is made of constant segments and already-validated, encoded
   * values; the result is still checked, because URL resolution folds `..` and `%2e%2e`.
   */
  url(path: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(path.replace(/^\/+/, ''), this.base);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const basePath = this.base.pathname.replace(/\/$/, '');
    const allowed = this.options.pathPrefixes.some((prefix) => url.pathname.startsWith(`${basePath}${prefix}`));
    if (url.origin !== this.origin || !allowed || url.username !== '' || url.password !== '') {
      throw new UpstreamError(this.upstream, 'invalid_input', `refused to build a URL outside ${this.upstream}'s API`);
    }
    return url;
  }

  async get(url: URL, options: { signal?: AbortSignal; accept?: string; onProgress?: DownloadProgress } = {}): Promise<UpstreamResponse> {
    if (url.origin !== this.origin) {
      throw new UpstreamError(this.upstream, 'invalid_input', `refused a request to another origin than ${this.upstream}'s`);
    }
    const started = performance.now();
    const metrics = this.options.metrics;
    try {
      const response = await request(url, {
        method: 'GET',
        dispatcher: this.dispatcher,
        headers: {
          'user-agent': USER_AGENT,
          accept: options.accept ?? 'application/json',
          ...this.options.headers,
        },
        signal: options.signal,
      });
      const length = Number(response.headers['content-length']);
      const announcedBytes = Number.isFinite(length) && length > 0 ? length : undefined;
      const maxBytes = this.options.maxBodyBytes ?? 64 * 1024 * 1024;
      const tooLarge = () => new UpstreamError(this.upstream, 'bad_response', `response body larger than ${maxBytes} bytes`);
      const body = await readBoundedBody(response.body, { maxBytes, announcedBytes, tooLarge }, (received) => options.onProgress?.(received, announcedBytes));
      metrics?.upstreamLatency.labels(this.upstream).observe((performance.now() - started) / 1000);
      metrics?.upstreamRequests.labels(this.upstream, String(response.statusCode)).inc();
      const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
      return { status: response.statusCode, headers: response.headers, contentType, body };
    } catch (error) {
      metrics?.upstreamRequests.labels(this.upstream, 'error').inc();
      throw toUpstreamError(this.upstream, error);
    }
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}

/** Called as a body arrives, with the bytes received so far and the announced length when known. */
export type DownloadProgress = (receivedBytes: number, totalBytes: number | undefined) => void;

const NETWORK_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
]);

function toUpstreamError(upstream: UpstreamName, error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof undiciErrors.RequestAbortedError) {
    return new UpstreamError(upstream, 'unavailable', `${upstream} request timed out or was aborted`, { cause: error });
  }
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) {
    return new UpstreamError(upstream, 'unavailable', `${upstream} network error ${code}`, { cause: error });
  }
  return new UpstreamError(upstream, 'unavailable', `${upstream} request failed`, { cause: error });
}

/** Parses `Retry-After` (delta-seconds or an HTTP date), clamped to [min, max]. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  fallbackMs: number,
  bounds: { minMs: number; maxMs: number } = { minMs: 1_000, maxMs: 15 * 60_000 },
  now: number = Date.now(),
): number {
  const raw = Array.isArray(value) ? value[0] : value;
  let ms = fallbackMs;
  if (raw !== undefined && raw.trim() !== '') {
    const trimmed = raw.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
    else {
      const date = Date.parse(trimmed);
      if (!Number.isNaN(date)) ms = date - now;
    }
  }
  return Math.min(bounds.maxMs, Math.max(bounds.minMs, ms));
}

export function isHtml(response: UpstreamResponse): boolean {
  if (response.contentType.includes('html')) return true;
  const head = response.body.subarray(0, 64).toString('utf8').trimStart().toLowerCase();
  return head.startsWith('<!doctype') || head.startsWith('<html');
}

/** Parses a JSON body; a body that is not JSON becomes a `bad_response` error. */
export function parseJson(upstream: UpstreamName, response: UpstreamResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    throw new UpstreamError(upstream, 'bad_response', `${upstream} sent a body that is not JSON (status ${response.status})`, {
      status: response.status,
      cause: error,
    });
  }
}

/**
 * The status handling every upstream shares: 429 → rate limited, 5xx or an HTML page → unavailable.
 * Returns nothing when the response is for the caller to interpret (2xx and the upstream's own 4xx).
 */
export function checkCommonFailures(upstream: UpstreamName, response: UpstreamResponse, fallbackRetryMs: number): void {
  if (response.status === 429) {
    throw new UpstreamError(upstream, 'rate_limited', `${upstream} answered 429`, {
      status: 429,
      retryAfterMs: parseRetryAfter(response.headers['retry-after'], fallbackRetryMs),
    });
  }
  if (response.status >= 500) {
    throw new UpstreamError(upstream, 'unavailable', `${upstream} answered ${response.status}`, { status: response.status });
  }
  if (isHtml(response)) {
    throw new UpstreamError(upstream, 'unavailable', `${upstream} answered ${response.status} with an HTML page`, {
      status: response.status,
    });
  }
}
