/**
 * What goes into a Discord REST route from a payload (ids, an interaction's token), checked before it
 * does, in both modes. A route is a path on Discord's API: a token holding `../` would send the
 * request elsewhere on it, with the token's authority. Discord issues nothing of the kind, so
 * anything else is refused, never repaired.
 */

/** A Discord id (snowflake) as Discord writes it: 17 to 20 digits. */
const SNOWFLAKE = /^\d{17,20}$/;
/** Discord's tokens are printable ASCII (base64url and dots): spaces, controls and the like are no token. */
const PRINTABLE_ASCII = /^[!-~]+$/;
/** What no token Discord issues holds: a path separator, a query, a fragment, an escape. */
const NOT_IN_A_TOKEN = /[/\\?#%]/;

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && SNOWFLAKE.test(value);
}

/** A token that can only ever be one path segment: printable, not a dot segment, no separator or escape. */
export function isInteractionToken(value: unknown): value is string {
  return typeof value === 'string' && PRINTABLE_ASCII.test(value) && value !== '.' && value !== '..' && !NOT_IN_A_TOKEN.test(value);
}

/** `id` as a route's segment; anything but a snowflake throws (the error names no value). */
export function routeId(id: string): string {
  if (!isSnowflake(id)) throw new TypeError('refused in a Discord route: not a Discord id');
  return id;
}

/** `token` as one route segment, encoded; a token Discord cannot have issued throws (the error names no value). */
export function routeToken(token: string): string {
  if (!isInteractionToken(token)) throw new TypeError('refused in a Discord route: not an interaction token');
  return encodeURIComponent(token);
}
