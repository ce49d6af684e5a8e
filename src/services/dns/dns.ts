import { promises as dns } from 'node:dns';
import { LRUCache } from 'lru-cache';
import { parseIpAddress } from '../../ip/address.js';
import { parseHostName } from '../../ip/host-name.js';
import type { NameResolution, ResolveFailure, ReverseName } from '../../ip/resolution.js';
import type { MemberShareSpender } from '../../upstream/cache.js';

/** Each query's deadline on each server it asks, held by Almanac's own timer (see `DnsResolver.attempt`); one try. */
export const DNS_QUERY_TIMEOUT_MS = 2_000;
/** Reverse names are a bonus: whatever has not come back within this is left out. */
export const REVERSE_WITHIN_MS = 1_000;
/** Most DNS queries one command may put on the wire, over UDP and TCP alike (see `QUERIES_PER_ATTEMPT`). */
export const MAX_DNS_QUERIES_PER_COMMAND = 40;
/** However long a record says it may be kept, it is asked again after an hour. */
const MAX_CACHE_TTL_MS = 60 * 60_000;
/** For answers whose TTL Node's resolver does not report (PTR), or that have none to report (no PTR). */
const UNTIMED_CACHE_TTL_MS = 5 * 60_000;

/** The queries one command may still put on the wire; each server asked takes all it may be sent, a cached answer none. */
export class DnsQueryBudget {
  private used = 0;

  constructor(readonly limit = MAX_DNS_QUERIES_PER_COMMAND) {}

  take(queries: number): boolean {
    if (this.used + queries > this.limit) return false;
    this.used += queries;
    return true;
  }
}

export interface DnsResolverOptions {
  /** `ip` or `ip:port` (IPv6 in brackets); the system's resolvers when absent. */
  servers?: readonly string[];
  timeoutMs?: number;
  reverseWithinMs?: number;
  /** Clock for the caches and the servers' failures, injectable for tests. */
  now?: () => number;
}

type Resolver = InstanceType<typeof dns.Resolver>;

/**
 * The most queries asking one server once may put on the wire, all charged before it starts: Node
 * shows no packet, so what c-ares sent cannot be counted after. The UDP query, and the same again
 * over TCP when the answer comes back truncated. Node's queries carry no EDNS, so any answer over
 * 512 octets comes back truncated: a long CNAME chain or many addresses, which any member's name
 * can have, doubles its queries. (No EDNS, so no cookie or EDNS-fallback repeats either.)
 */
const QUERIES_PER_ATTEMPT = 2;

/**
 * The most servers one query is asked of, in turn: glibc's resolver uses no more than three
 * (MAXNS), so resolv.conf seldom lists more. It bounds a query at three deadlines, 6 s; a
 * command's names are asked side by side, so it waits no longer for them, then at most 1 s for
 * reverse names. Each further server would add 2 s to every query a dead server holds up.
 */
const MAX_SERVERS_PER_QUERY = 3;

/** A server that kept silent or could not be reached is asked after the others for this long. */
const FAILED_SERVER_LAST_MS = 60_000;

/**
 * Node's resolver error codes after which c-ares, given more servers, asks the next one: no answer
 * in time (`ETIMEOUT`), a connection refused or cut (`ECONNREFUSED`, UDP and TCP alike), a server
 * of a family the host has no socket for (`EBADFAMILY`), an answer it could not read
 * (`EBADRESP`: c-ares drops the connection). Answers, SERVFAIL and REFUSED included, are final.
 */
const UNREACHED: ReadonlySet<string> = new Set(['ETIMEOUT', 'ECONNREFUSED', 'EBADFAMILY', 'EBADRESP']);

type Asked<T> = { ok: true; value: T } | { ok: false; failure: ResolveFailure };
type Attempt<T> = Asked<T> | { ok: false; failure: ResolveFailure; unreached: true };
type Answer = { ok: true; addresses: string[]; ttlMs: number } | { ok: false; failure: ResolveFailure };

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** Node's resolver error codes, as a member reads them. */
function failureOf(code: unknown): ResolveFailure {
  if (code === 'ENOTFOUND') return 'noSuchName';
  if (code === 'ENODATA') return 'noAddress';
  if (code === 'ETIMEOUT') return 'timedOut';
  return 'serverFailed';
}

/** When both families failed, the failure that says most (a missing name before a slow server). */
const FAILURE_ORDER: readonly ResolveFailure[] = ['noSuchName', 'timedOut', 'serverFailed', 'queryCap', 'noAddress'];

/**
 * Every DNS query Almanac makes, of one server at a time on a `dns.promises.Resolver` of its own
 * (see `ask`): `DNS_SERVERS` when set, else the system's (never `dns.lookup`, which asks the
 * system's resolver whatever is configured), A and AAAA for names, PTR and its forward confirmation
 * for addresses. Each server asked counts against the command's `DnsQueryBudget` for all it may be
 * sent; answers are kept for their TTL, capped at an hour, and cost nothing again.
 */
export class DnsResolver {
  private readonly servers: string[];
  private readonly timeoutMs: number;
  private readonly now: () => number;
  /** When each server last kept silent or could not be reached; forgotten once a query of it succeeds. */
  private readonly failedAt = new Map<string, number>();
  /** The channels of the queries under way, cancelled by `close`. */
  private readonly asking = new Set<Resolver>();
  private readonly reverseWithinMs: number;
  private readonly names: LRUCache<string, { addresses: string[] }>;
  private readonly reverses: LRUCache<string, { reverse: ReverseName | null }>;

  constructor(options: DnsResolverOptions = {}) {
    // The servers as c-ares lists them: the ones given (a malformed one refused here, at start,
    // rather than by every query), else the system's, read once.
    const listing = new dns.Resolver();
    if (options.servers !== undefined && options.servers.length > 0) listing.setServers([...options.servers]);
    this.servers = listing.getServers();
    this.timeoutMs = options.timeoutMs ?? DNS_QUERY_TIMEOUT_MS;
    this.now = options.now ?? (() => performance.now());
    this.reverseWithinMs = options.reverseWithinMs ?? REVERSE_WITHIN_MS;
    const perf = options.now ? { perf: { now: options.now } } : {};
    this.names = new LRUCache({ max: 5_000, ...perf });
    this.reverses = new LRUCache({ max: 5_000, ...perf });
  }

  /**
   * The addresses of each name (ASCII, as `parseHostName` gives it). A name not cached costs one of
   * `share` before its queries: resolutions count against the member's GeoJS share like the
   * lookups they lead to, and a spent share rejects with its refusal.
   */
  async resolveNames(names: readonly string[], budget: DnsQueryBudget, share?: MemberShareSpender): Promise<Map<string, NameResolution>> {
    const unique = [...new Set(names)];
    const resolved = await Promise.all(unique.map((name) => this.resolveName(name, budget, share)));
    return new Map(unique.map((name, index) => [name, resolved[index]!]));
  }

  /**
   * The PTR name of each address that has one and answers within `REVERSE_WITHIN_MS`, confirmed
   * when that name's addresses of the same family include the address. Best effort: failures and
   * slow answers are left out, never reported.
   */
  async reverseNames(addresses: readonly string[], budget: DnsQueryBudget): Promise<Map<string, ReverseName>> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.reverseWithinMs);
    });
    try {
      const found = await Promise.all(addresses.map((address) => Promise.race([this.reverseName(address, budget), late])));
      return new Map(addresses.flatMap((address, index) => (found[index] ? [[address, found[index]] as const] : [])));
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    for (const resolver of this.asking) resolver.cancel();
  }

  private async resolveName(name: string, budget: DnsQueryBudget, share?: MemberShareSpender): Promise<NameResolution> {
    const cached = this.names.get(name);
    if (cached) return { ok: true, addresses: cached.addresses };
    await share?.beforeRequest?.();
    const [v4, v6] = await Promise.all([this.addresses(name, 4, budget), this.addresses(name, 6, budget)]);
    const addresses = [...new Set([v4, v6].flatMap((answer) => (answer.ok ? answer.addresses : [])))];
    if (addresses.length > 0) {
      const ttlMs = Math.min(...[v4, v6].flatMap((answer) => (answer.ok && answer.addresses.length > 0 ? [answer.ttlMs] : [])));
      if (ttlMs > 0) this.names.set(name, { addresses }, { ttl: ttlMs });
      return { ok: true, addresses };
    }
    const failures = [v4, v6].flatMap((answer) => (answer.ok ? ['noAddress' as const] : [answer.failure]));
    return { ok: false, failure: FAILURE_ORDER.find((failure) => failures.includes(failure)) ?? 'noAddress' };
  }

  /** One A or AAAA query: canonical addresses (anything else a server sent is dropped) and the TTL to keep them. */
  private async addresses(name: string, family: 4 | 6, budget: DnsQueryBudget): Promise<Answer> {
    const asked = await this.ask(budget, (resolver) => (family === 4 ? resolver.resolve4(name, { ttl: true }) : resolver.resolve6(name, { ttl: true })));
    if (!asked.ok) return asked;
    const addresses = asked.value.flatMap((record) => {
      const parsed = parseIpAddress(record.address);
      return parsed.ok ? [parsed.address] : [];
    });
    const ttlMs = Math.min(MAX_CACHE_TTL_MS, ...asked.value.map((record) => record.ttl * 1000));
    return { ok: true, addresses, ttlMs };
  }

  private async reverseName(address: string, budget: DnsQueryBudget): Promise<ReverseName | null> {
    const cached = this.reverses.get(address);
    if (cached) return cached.reverse;
    const parsed = parseIpAddress(address);
    if (!parsed.ok) return null;
    const asked = await this.ask(budget, (resolver) => resolver.reverse(parsed.address));
    if (!asked.ok) {
      if (asked.failure === 'noSuchName' || asked.failure === 'noAddress') this.reverses.set(address, { reverse: null }, { ttl: UNTIMED_CACHE_TTL_MS });
      return null;
    }
    const [ptr] = asked.value;
    const name = ptr === undefined ? undefined : parseHostName(ptr);
    if (name === undefined || (!name.ok && name.problem !== 'privateName')) return null;
    // A PTR into someone's private names is shown as it is, but never asked about.
    if (!name.ok) return { name: ptr!.replace(/\.$/, '').toLowerCase(), confirmed: false };
    const forward = await this.addresses(name.name, parsed.version, budget);
    const confirmed = forward.ok && forward.addresses.includes(parsed.address);
    const reverse = { name: name.display, confirmed };
    this.reverses.set(address, { reverse }, { ttl: forward.ok && confirmed ? Math.max(1, forward.ttlMs) : UNTIMED_CACHE_TTL_MS });
    return reverse;
  }

  /**
   * One query, of one server at a time: the next is asked only when one keeps silent past its
   * deadline or cannot be reached (`UNREACHED`), as c-ares does among the servers of a channel;
   * each server asked is charged `QUERIES_PER_ATTEMPT` as it is asked. So a query costs what it
   * costs with one server unless a server fails it, and no more than the budget allows then: a
   * hand-over the budget cannot pay for is not made, and the member reads why the last server
   * failed. At most `MAX_SERVERS_PER_QUERY` servers, those that failed lately last.
   */
  private async ask<T>(budget: DnsQueryBudget, call: (resolver: Resolver) => Promise<T>): Promise<Asked<T>> {
    let failure: ResolveFailure | undefined;
    for (const server of this.inTurn()) {
      if (!budget.take(QUERIES_PER_ATTEMPT)) return { ok: false, failure: failure ?? 'queryCap' };
      const attempt = await this.attempt(server, call);
      if (!('unreached' in attempt)) return attempt;
      failure = attempt.failure;
    }
    return { ok: false, failure: failure ?? 'serverFailed' };
  }

  /** The servers to ask a query of, in turn: the configured order, those that failed in the last minute after the others. */
  private inTurn(): string[] {
    const since = this.now() - FAILED_SERVER_LAST_MS;
    const failedLately = (server: string) => (this.failedAt.get(server) ?? -Infinity) > since;
    return [...this.servers.filter((server) => !failedLately(server)), ...this.servers.filter(failedLately)].slice(0, MAX_SERVERS_PER_QUERY);
  }

  /**
   * One server asked once, on a channel of its own, given up by our own timer at the deadline.
   *
   * A channel of its own: once a channel has had three answers from a server, c-ares (1.22 and
   * later) gives up on that server's queries after five times their average time (250 ms at the
   * least), whatever `timeout` says, and Node 20 offers no `maxTimeout` to bound it. After a few
   * fast answers a shared channel reported a name answered in 1.5 s "no answer in time" after about
   * a second. A new channel has nothing to learn from: it waits `timeout`.
   * Our own timer: Node looks at c-ares' timeouts only once a second, and c-ares starts the clock
   * again when it repeats a truncated answer over TCP; the timer holds the whole attempt to the
   * deadline.
   */
  private async attempt<T>(server: string, call: (resolver: Resolver) => Promise<T>): Promise<Attempt<T>> {
    const resolver = new dns.Resolver({ timeout: this.timeoutMs, tries: 1 });
    resolver.setServers([server]);
    let late = false;
    const deadline = setTimeout(() => {
      late = true;
      resolver.cancel();
    }, this.timeoutMs);
    this.asking.add(resolver);
    try {
      const value = await call(resolver);
      this.failedAt.delete(server);
      return { ok: true, value };
    } catch (error) {
      const code = late ? 'ETIMEOUT' : codeOf(error);
      if (typeof code !== 'string' || !UNREACHED.has(code)) return { ok: false, failure: failureOf(code) };
      this.failedAt.set(server, this.now());
      return { ok: false, failure: failureOf(code), unreached: true };
    } finally {
      clearTimeout(deadline);
      this.asking.delete(resolver);
    }
  }
}
