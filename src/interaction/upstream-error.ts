export type UpstreamName = 'geojs' | 'wallhaven' | 'ygoprodeck' | 'rdap';

export type UpstreamErrorKind =
  /** The thing asked for does not exist upstream. */
  | 'not_found'
  /** The upstream refused the input (after our own validation let it through). */
  | 'invalid_input'
  /** The upstream asked us to slow down, or our limiter is paused after it did. */
  | 'rate_limited'
  /** Our own queue for this upstream is full: try again shortly. */
  | 'busy'
  /** Timeout, connection reset, 5xx, an HTML error page, or the circuit is open. */
  | 'unavailable'
  /** 2xx with a body we cannot use: malformed JSON or an unexpected shape. */
  | 'bad_response'
  /** The operation needs credentials we do not have (Wallhaven NSFW without a key). */
  | 'unauthorized';

const UPSTREAM_LABELS: Record<UpstreamName, string> = {
  geojs: 'GeoJS',
  wallhaven: 'Wallhaven',
  ygoprodeck: 'YGOPRODeck',
  rdap: 'RDAP',
};

export function upstreamLabel(name: UpstreamName): string {
  return UPSTREAM_LABELS[name];
}

/**
 * The few ways an upstream call can fail that a command can explain to a user. The message is for
 * logs only and never contains a URL's query or a header (secrets travel in headers).
 */
export class UpstreamError extends Error {
  readonly kind: UpstreamErrorKind;
  readonly upstream: UpstreamName;
  /** When set, the earliest time a retry makes sense, in ms from now. */
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;

  constructor(
    upstream: UpstreamName,
    kind: UpstreamErrorKind,
    message: string,
    details: { retryAfterMs?: number; status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'UpstreamError';
    this.upstream = upstream;
    this.kind = kind;
    this.retryAfterMs = details.retryAfterMs;
    this.status = details.status;
  }
}

export function isUpstreamError(error: unknown, kind?: UpstreamErrorKind): error is UpstreamError {
  return error instanceof UpstreamError && (kind === undefined || error.kind === kind);
}
