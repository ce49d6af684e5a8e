import dgram from 'node:dgram';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * The network fence: in a test process, any attempt to reach a non-loopback address (a raw socket,
 * TLS, undici, Node's fetch, discord.js's REST, a WebSocket, a DNS query, a `Resolver` asking
 * servers off loopback, a UDP datagram such as `/ip dig`'s wire queries) is refused before a packet
 * leaves, and recorded, so the test that made it fails (see vitest-setup.ts) even when the code under
 * test swallowed the refusal as "upstream unavailable". A forgotten host cannot hide behind an
 * offline machine's DNS failure.
 *
 * Everything that opens a TCP connection goes through `net.Socket.prototype.connect` (net.connect,
 * tls.connect, http agents and undici's connector all end there), so one patch covers them all.
 */

/** Starts the line a fenced child process writes to stderr for each refusal (see child-preload.ts). */
export const FENCE_MARKER = 'network fence: refused';

/** What the fence's own tests try to reach: a documentation address (RFC 5737), routable nowhere and never loopback. */
export const FAR_ADDRESS = '192.0.2.1';

export interface BlockedAttempt {
  /** `host:port`, or the name a DNS call asked about. */
  target: string;
  /** `connect` or the dns function called. */
  via: string;
}

const pending: BlockedAttempt[] = [];
let listener: ((attempt: BlockedAttempt) => void) | undefined;
let installed = false;

/** The attempts recorded since the last call, cleared: a test of the fence itself takes what it caused. */
export function takeBlockedAttempts(): BlockedAttempt[] {
  return pending.splice(0);
}

/** Records an attempt made elsewhere (a fenced child process, read from its stderr). */
export function recordBlockedAttempt(attempt: BlockedAttempt): void {
  pending.push(attempt);
  listener?.(attempt);
}

/** Throws, naming every attempt, when any was recorded since the last check (and clears them). */
export function assertNoBlockedAttempts(): void {
  const attempts = takeBlockedAttempts();
  if (attempts.length === 0) return;
  const list = [...new Set(attempts.map((attempt) => `${attempt.target} (${attempt.via})`))].join(', ');
  throw new Error(`${FENCE_MARKER} ${list}: tests reach only 127.0.0.1; point this upstream at a local fake`);
}

/** Reads `network fence: refused <target> (<via>)` lines a fenced child wrote. */
export function parseFenceLines(text: string): BlockedAttempt[] {
  const attempts: BlockedAttempt[] = [];
  for (const match of text.matchAll(new RegExp(`^${FENCE_MARKER} (\\S+) \\(([^)]+)\\)$`, 'gm'))) {
    attempts.push({ target: match[1]!, via: match[2]! });
  }
  return attempts;
}

export function formatFenceLine(attempt: BlockedAttempt): string {
  return `${FENCE_MARKER} ${attempt.target} (${attempt.via})`;
}

/** Loopback names and addresses: 127.0.0.0/8, ::1, ::ffff:127.x.y.z and localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (!net.isIPv6(bare)) return false;
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  return canonical === '::1' || /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(canonical);
}

type ConnectArgs = unknown[];

/** Where a `Socket#connect` call goes: a host and port, or undefined for a local (IPC) path. */
function connectTarget(args: ConnectArgs): { host: string; port: string } | undefined {
  // net.connect() passes its already-normalised [options, callback] array as the only argument.
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (first !== null && typeof first === 'object') {
    const options = first as { path?: unknown; host?: unknown; port?: unknown };
    if (options.path !== undefined) return undefined;
    return { host: typeof options.host === 'string' ? options.host : 'localhost', port: String(options.port ?? '') };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined;
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: String(first) };
}

function refusal(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function fenceSockets(onBlocked: (attempt: BlockedAttempt) => void): void {
  const connect = net.Socket.prototype.connect as (this: net.Socket, ...args: ConnectArgs) => net.Socket;
  net.Socket.prototype.connect = function fencedConnect(this: net.Socket, ...args: ConnectArgs): net.Socket {
    const target = connectTarget(args);
    if (target === undefined || isLoopback(target.host)) return connect.apply(this, args);
    const attempt = { target: `${target.host}:${target.port}`, via: 'connect' };
    onBlocked(attempt);
    // As an unreachable host would: the socket fails on the next tick, nothing is sent.
    process.nextTick(() => this.destroy(refusal(formatFenceLine(attempt), 'ECONNREFUSED')));
    return this;
  } as typeof net.Socket.prototype.connect;
}

/**
 * UDP has no connect to patch: each datagram names its address (the last string argument of
 * `send`, `localhost` when none). One off loopback is not sent; the socket reports the refusal as a
 * failed send does (its callback, else an `error` event).
 */
function fenceDatagrams(onBlocked: (attempt: BlockedAttempt) => void): void {
  const send = dgram.Socket.prototype.send as (this: dgram.Socket, ...args: unknown[]) => void;
  dgram.Socket.prototype.send = function fencedSend(this: dgram.Socket, ...args: unknown[]): void {
    const address = args.findLast((arg) => typeof arg === 'string') as string | undefined;
    if (address === undefined || isLoopback(address)) return send.apply(this, args);
    // The port comes just before the address, in every form of `send`.
    const attempt = { target: `${address}:${String(args[args.lastIndexOf(address) - 1])}`, via: 'dgram.send' };
    onBlocked(attempt);
    const error = refusal(formatFenceLine(attempt), 'ECONNREFUSED');
    const callback = args.findLast((arg) => typeof arg === 'function') as ((error: Error) => void) | undefined;
    process.nextTick(() => (callback ? callback(error) : this.emit('error', error)));
  } as typeof dgram.Socket.prototype.send;
}

const DNS_QUERIES = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx',
  'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'] as const;

/** A name worth no query: loopback, or an IP literal (lookup answers those without the network). */
function answeredLocally(via: string, name: unknown): boolean {
  return typeof name === 'string' && (isLoopback(name) || (via === 'lookup' && net.isIP(name) !== 0));
}

function fenceDns(onBlocked: (attempt: BlockedAttempt) => void): void {
  const callbackApi = dns as unknown as Record<string, (...args: unknown[]) => unknown>;
  const promiseApi = dns.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const via of DNS_QUERIES) {
    const callbackQuery = callbackApi[via]!;
    callbackApi[via] = function fencedQuery(this: unknown, ...args: unknown[]) {
      if (answeredLocally(via, args[0])) return callbackQuery.apply(this, args);
      const attempt = { target: String(args[0]), via: `dns.${via}` };
      onBlocked(attempt);
      const callback = args.findLast((arg) => typeof arg === 'function') as ((error: Error) => void) | undefined;
      process.nextTick(() => callback?.(refusal(formatFenceLine(attempt), 'ENOTFOUND')));
      return undefined;
    };
    const promiseQuery = promiseApi[via]!;
    promiseApi[via] = function fencedQuery(this: unknown, ...args: unknown[]) {
      if (answeredLocally(via, args[0])) return promiseQuery.apply(this, args);
      const attempt = { target: String(args[0]), via: `dns.promises.${via}` };
      onBlocked(attempt);
      return Promise.reject(refusal(formatFenceLine(attempt), 'ENOTFOUND'));
    };
  }
}

/** `127.0.0.1`, `127.0.0.1:5353`, `::1`, `[::1]:53`: a server `Resolver#getServers` lists, without its port. */
function serverHost(server: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(server);
  if (bracketed) return bracketed[1]!;
  return server.split(':').length === 2 ? server.split(':')[0]! : server;
}

/**
 * `Resolver` instances (callback and promise forms) carry their own servers, and the module-level
 * functions patched above never see them: a query is let through only when every server the
 * instance would ask is on loopback (c-ares moves to the next server when one fails).
 */
function fenceResolvers(onBlocked: (attempt: BlockedAttempt) => void): void {
  const resolverClasses = [
    { prototype: dns.Resolver.prototype as unknown as Record<string, (...args: unknown[]) => unknown>, promises: false },
    { prototype: dns.promises.Resolver.prototype as unknown as Record<string, (...args: unknown[]) => unknown>, promises: true },
  ];
  for (const { prototype, promises } of resolverClasses) {
    for (const via of DNS_QUERIES) {
      const query = prototype[via];
      if (typeof query !== 'function') continue;
      prototype[via] = function fencedResolverQuery(this: { getServers(): string[] }, ...args: unknown[]) {
        if (this.getServers().every((server) => isLoopback(serverHost(server)))) return query.apply(this, args);
        const attempt = { target: String(args[0]), via: `Resolver.${via}` };
        onBlocked(attempt);
        const error = refusal(formatFenceLine(attempt), 'ECONNREFUSED');
        if (promises) return Promise.reject(error);
        const callback = args.findLast((arg) => typeof arg === 'function') as ((error: Error) => void) | undefined;
        process.nextTick(() => callback?.(error));
        return undefined;
      };
    }
  }
}

/**
 * Installs the fence in this process (once). `onBlocked` runs for every refusal, besides its being
 * recorded for `assertNoBlockedAttempts`.
 */
export function installNetworkFence(onBlocked?: (attempt: BlockedAttempt) => void): void {
  listener = onBlocked;
  if (installed) return;
  installed = true;
  fenceSockets((attempt) => recordBlockedAttempt(attempt));
  fenceDatagrams((attempt) => recordBlockedAttempt(attempt));
  fenceDns((attempt) => recordBlockedAttempt(attempt));
  fenceResolvers((attempt) => recordBlockedAttempt(attempt));
  // `import { lookup } from 'node:dns'` sees the fenced functions too.
  syncBuiltinESMExports();
}
