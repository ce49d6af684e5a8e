import { BlockList } from 'node:net';
import { z } from 'zod';
import type { WhoisQuery } from '../../ip/whois-query.js';
import { UpstreamError } from '../../interaction/upstream-error.js';

/** IANA's four bootstrap files (RFC 9224), one per kind of object. */
export type BootstrapFile = 'ipv4' | 'ipv6' | 'asn' | 'dns';

/** `services`: a list of [keys (prefixes, AS ranges or TLDs), base URLs]; the rest of the file is ignored. */
const rawBootstrap = z.object({ services: z.array(z.array(z.array(z.string()))) });

/** One file's entries: what each serves and its base URLs, those of the allowed scheme only. */
export type BootstrapServices = { keys: string[]; bases: string[] }[];

/**
 * Reads a bootstrap file. Only bases of `protocol` are kept (IANA lists `http:` next to `https:` for
 * some registries: an answer read over plain HTTP could be altered on the way), each ending in `/`.
 */
export function parseBootstrap(body: unknown, protocol: string): BootstrapServices {
  const parsed = rawBootstrap.safeParse(body);
  if (!parsed.success) throw new UpstreamError('rdap', 'bad_response', 'an RDAP bootstrap file is not a list of services');
  return parsed.data.services.flatMap(([keys, urls]) => {
    const bases = (urls ?? []).flatMap((url) => {
      const base = safeUrl(url.endsWith('/') ? url : `${url}/`);
      return base?.protocol === protocol && base.username === '' && base.password === '' && base.search === '' ? [base.href] : [];
    });
    return keys && keys.length > 0 && bases.length > 0 ? [{ keys, bases }] : [];
  });
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Which file serves a query, and the key it is found under there. */
export function fileFor(query: WhoisQuery): BootstrapFile {
  if (query.kind === 'autnum') return 'asn';
  if (query.kind === 'domain') return 'dns';
  return query.address.includes(':') ? 'ipv6' : 'ipv4';
}

/**
 * The base URLs of the registry that serves a query: the most specific entry that holds it (the
 * longest prefix for an address, the longest suffix for a domain, the range for an AS number).
 * Empty when no registry does.
 */
export function basesFor(services: BootstrapServices, query: WhoisQuery): string[] {
  let best: { bases: string[]; specificity: number } | undefined;
  for (const { keys, bases } of services) {
    for (const key of keys) {
      const specificity = matchSpecificity(key, query);
      if (specificity !== null && (best === undefined || specificity > best.specificity)) best = { bases, specificity };
    }
  }
  return best?.bases ?? [];
}

/** How specifically `key` holds the query (higher is more specific), or null when it does not. */
function matchSpecificity(key: string, query: WhoisQuery): number | null {
  if (query.kind === 'autnum') {
    const [low, high = low] = key.split('-').map(Number);
    return low !== undefined && query.number >= low && query.number <= high! ? -(high! - low) : null;
  }
  if (query.kind === 'domain') {
    const tld = key.toLowerCase().replace(/^\.|\.$/g, '');
    return query.name === tld || query.name.endsWith(`.${tld}`) ? tld.split('.').length : null;
  }
  const [network, prefix] = key.split('/');
  const length = Number(prefix);
  const family = query.address.includes(':') ? 'ipv6' : 'ipv4';
  if (network === undefined || !Number.isInteger(length)) return null;
  const list = new BlockList();
  try {
    list.addSubnet(network, length, family);
  } catch {
    // An entry of the other family, or one this file should not hold: it serves nothing here.
    return null;
  }
  return list.check(query.address, family) ? length : null;
}

/** Whether `url` lies under one of the file's bases: the only servers a redirect may lead to. */
export function isNamedServer(services: BootstrapServices, url: URL): boolean {
  return services.some(({ bases }) => bases.some((base) => url.href.startsWith(base)));
}
