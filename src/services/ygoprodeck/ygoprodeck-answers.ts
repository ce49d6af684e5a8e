import { genesysEntriesOf, type GenesysEntriesRead } from '../../cards/genesys.js';
import { normaliseCards, type CardListNormalisation } from '../../cards/normalise-card.js';
import { UpstreamError } from '../../interaction/upstream-error.js';
import type { UpstreamResponse } from '../../upstream/http.js';

/** YGOPRODeck's bodies and error answers read, and what may be put in its queries checked, before anything is sent or kept. */

/** Parses a `cardinfo.php` body (`{"data":[…]}`) into normalised cards. */
export function parseCardinfoBody(body: Buffer): CardListNormalisation {
  return normaliseCards(cardinfoData(body));
}

/** Parses the Genesys pool's body (`cardinfo.php?format=genesys&misc=yes`) into each card's points. */
export function parseGenesysBody(body: Buffer): GenesysEntriesRead {
  return genesysEntriesOf(cardinfoData(body));
}

function cardinfoData(body: Buffer): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new UpstreamError('ygoprodeck', 'bad_response', 'cardinfo.php body is not JSON (truncated?)', { cause: error });
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new UpstreamError('ygoprodeck', 'bad_response', 'cardinfo.php body has no data array');
  return data;
}

const NO_MATCH_PREFIX = 'No card matching your query';

/** Every YGOPRODeck API error is a 400 with `{"error": "…"}`; "no match" is the one that means not found. */
export function apiError(response: UpstreamResponse): UpstreamError {
  let message: unknown;
  try {
    message = (JSON.parse(response.body.toString('utf8')) as { error?: unknown } | null)?.error;
  } catch {
    message = undefined;
  }
  if (typeof message !== 'string') {
    return new UpstreamError('ygoprodeck', 'bad_response', 'YGOPRODeck answered 400 without an error message', { status: 400 });
  }
  if (message.startsWith(NO_MATCH_PREFIX)) {
    return new UpstreamError('ygoprodeck', 'not_found', 'no card matches', { status: 400 });
  }
  // The upstream's text describes the bad parameter; it never contains anything secret.
  return new UpstreamError('ygoprodeck', 'invalid_input', `YGOPRODeck refused the query: ${message.slice(0, 200)}`, { status: 400 });
}

/** Passcodes and image ids are positive integers of at most 10 digits. */
export function requireCardId(id: number): number {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 9_999_999_999) {
    throw new UpstreamError('ygoprodeck', 'invalid_input', 'a card id must be a positive integer');
  }
  return id;
}

/**
 * Card names are at most ~70 characters. `|` separates several names upstream, so it would change
 * the query's meaning; control characters are never part of a name.
 */
export function requireCardName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  // eslint-disable-next-line no-control-regex
  if (trimmed === '' || trimmed.length > 200 || /[\u0000-\u001f\u007f|]/.test(trimmed)) {
    throw new UpstreamError('ygoprodeck', 'invalid_input', 'a card name must be 1-200 printable characters without "|"');
  }
  return trimmed;
}

export function splitKey(key: string): [string, string] {
  const separator = key.indexOf(':');
  return [key.slice(0, separator), key.slice(separator + 1)];
}

export function rawName(card: unknown): string | undefined {
  const name = (card as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}
