import { isUpstreamError } from '../interaction/upstream-error.js';

/**
 * What Almanac knows of Wallhaven the site: its published request limit, which URLs are its own,
 * and how its wallpapers are named (ids, page and short links typed by users).
 */

/** Wallhaven's published limit: 45 requests per minute, per client, with or without a key. */
export const WALLHAVEN_RATE_LIMIT = { requests: 45, windowMs: 60_000 } as const;

const IMAGE_HOSTS = new Set(['wallhaven.cc', 'w.wallhaven.cc', 'th.wallhaven.cc', 'whvn.cc']);

/** An https URL on a Wallhaven host, or undefined: nothing else becomes an image or a link. */
export function wallhavenHttpsUrl(value: string | undefined, upgradeHttp = false): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (upgradeHttp && url.protocol === 'http:') url.protocol = 'https:';
  if (url.protocol !== 'https:' || !IMAGE_HOSTS.has(url.hostname) || url.port !== '' || url.username !== '' || url.password !== '') return undefined;
  return url.href;
}


/**
 * Ids are 6 lowercase alphanumerics today. Up to 8 are accepted so that the day the catalogue
 * outgrows 36^6 ids does not break the command; nothing else (no dots, slashes or `%`) can pass,
 * so an id is always safe as a path segment.
 */
export const WALLPAPER_ID_PATTERN = /^[a-z0-9]{6,8}$/;

type ParsedWallpaperId = { ok: true; id: string } | { ok: false; reason: string };

const PAGE_HOSTS = new Set(['wallhaven.cc', 'www.wallhaven.cc']);
const SHORT_HOSTS = new Set(['whvn.cc', 'www.whvn.cc']);

/**
 * Accepts a bare id, a wallpaper page (`[http[s]://][www.]wallhaven.cc/w/<id>`) or a short link
 * (`[http[s]://]whvn.cc/<id>`), with an optional trailing slash, query or fragment.
 */
export function parseWallpaperId(input: string): ParsedWallpaperId {
  const value = input.trim();
  if (value === '') return { ok: false, reason: 'give a wallpaper id (like 6dk8yq) or its wallhaven.cc link' };
  if (!value.includes('/') && !value.includes('.')) {
    if (WALLPAPER_ID_PATTERN.test(value)) return { ok: true, id: value };
    return { ok: false, reason: 'a wallpaper id is 6 lowercase letters and digits, like 6dk8yq' };
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return { ok: false, reason: 'not a wallpaper id or a wallhaven.cc link' };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || url.port !== '') {
    return { ok: false, reason: 'only wallhaven.cc and whvn.cc links are accepted' };
  }
  const host = url.hostname.toLowerCase();
  const path = url.pathname.replace(/\/$/, '');
  if (!PAGE_HOSTS.has(host) && !SHORT_HOSTS.has(host)) return { ok: false, reason: 'only wallhaven.cc and whvn.cc links are accepted' };
  const id = (PAGE_HOSTS.has(host) ? /^\/w\/([^/]+)$/ : /^\/([^/]+)$/).exec(path)?.[1];
  if (id === undefined) return { ok: false, reason: 'that link is not a wallpaper page (expected wallhaven.cc/w/<id> or whvn.cc/<id>)' };
  if (!WALLPAPER_ID_PATTERN.test(id)) return { ok: false, reason: 'the link does not contain a valid wallpaper id' };
  return { ok: true, id };
}


/**
 * Wallhaven's Cloudflare answers some `like:` searches with a 403 challenge page (a browser check a
 * bot cannot pass). The service reports it as `unavailable` with this message and, for a minute,
 * answers every `like:` search the same way without asking again: pressing "More like this" over
 * and over must not turn into a storm of challenged requests. `isSimilarChallenged` recognises it.
 */
export const SIMILAR_CHALLENGED = 'similar wallpapers challenged by the firewall';
export const SIMILAR_CHALLENGE_PAUSE_MS = 60_000;

export function isSimilarChallenged(error: unknown): boolean {
  return isUpstreamError(error, 'unavailable') && error.message === SIMILAR_CHALLENGED;
}

/** The `q` of Wallhaven's search for wallpapers similar to one. */
export function similarQuery(wallpaperId: string): string {
  return `like:${wallpaperId}`;
}

/** The wallpaper id of a `like:` query, or undefined for any other query. */
export function similarQueryTarget(query: string | null | undefined): string | undefined {
  const match = /^like:([a-z0-9]{6,8})$/.exec(query ?? '');
  return match?.[1];
}
