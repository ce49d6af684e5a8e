import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import { connect, isIP } from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';
import { request, type Dispatcher } from 'undici';
import type { DigOutcome, DigAnswer } from '../../ip/dig-answer.js';
import { withoutPrivateAddresses } from '../../ip/dig-answer.js';
import { SYSTEM_RESOLVER, type DigQuestion } from '../../ip/dig-query.js';
import type { ResolveFailure } from '../../ip/resolution.js';
import { USER_AGENT } from '../../runtime/version.js';
import { readBoundedBody } from '../../upstream/bounded-body.js';
import { digRecordsOf } from './dig-records.js';
import { DNS_QUERY_TIMEOUT_MS, DnsQueryBudget } from './dns.js';

/** A DNS-over-HTTPS resolver `/ip dig` offers (`DOH_RESOLVERS`): its name in the menu and its RFC 8484 URL. */
export interface DohResolver {
  name: string;
  url: string;
}

export interface DnsDigOptions {
  /** `DNS_SERVERS` (`ip`, `ip:port`, `[ip]:port`); the system's resolvers when absent. */
  servers?: readonly string[];
  doh: readonly DohResolver[];
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

/** The UDP size advertised (EDNS): the DNS flag day 2020 value, which no path fragments. */
const EDNS_UDP_SIZE = 1232;
/** Largest wire message read, over TCP or HTTPS (a DNS message is at most 65,535 octets). */
const MAX_MESSAGE_BYTES = 65_535;
/** As for `/ip`'s names: at most three servers a query, each asked in turn only when the one before kept silent. */
const MAX_SERVERS_PER_QUERY = 3;

type Exchange = { ok: true; packet: DecodedPacket } | { ok: false; failure: ResolveFailure; unreached: boolean };

/**
 * `/ip dig`'s DNS: the wire format (dns-packet) over UDP, and TCP when the UDP answer comes back
 * truncated, to `DNS_SERVERS` (Node's resolver shows neither the header's flags nor DNSSEC records),
 * or over HTTPS (RFC 8484, GET with the query's ID 0 so caches can serve it) to a resolver of
 * `DOH_RESOLVERS`. Every message put on the wire is taken from the command's `DnsQueryBudget`.
 */
export class DnsDig {
  private readonly servers: { host: string; port: number }[];
  private readonly timeoutMs: number;

  constructor(private readonly options: DnsDigOptions) {
    this.servers = (options.servers && options.servers.length > 0 ? options.servers : dns.getServers()).map(parseServer);
    this.timeoutMs = options.timeoutMs ?? DNS_QUERY_TIMEOUT_MS;
  }

  /** The resolvers a member may choose: the configured servers first, then each DoH resolver by name. */
  resolverNames(): string[] {
    return [SYSTEM_RESOLVER, ...this.options.doh.map((resolver) => resolver.name)];
  }

  /**
   * One question asked of `resolver` (validated by `parseDigQuestion`; an unknown resolver is the
   * caller's refusal), within one command's 40 queries.
   */
  async ask(question: DigQuestion, resolver: string, budget = new DnsQueryBudget()): Promise<DigOutcome> {
    const query = (id: number) =>
      dnsPacket.encode({
        type: 'query',
        id,
        // AD asks the resolver to say whether it validated the answer (RFC 6840 § 5.7).
        flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
        questions: [{ type: question.type, name: question.name, class: 'IN' }],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_SIZE, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }],
      });
    const doh = this.options.doh.find((candidate) => candidate.name === resolver);
    if (doh !== undefined) {
      if (!budget.take(1)) return { ok: false, failure: 'queryCap' };
      const exchange = await this.overHttps(doh.url, query(0), question);
      return exchange.ok ? { ok: true, answer: answerOf(exchange.packet, 'https') } : exchange;
    }
    let failure: ResolveFailure = 'serverFailed';
    for (const server of this.servers.slice(0, MAX_SERVERS_PER_QUERY)) {
      const outcome = await this.askServer(server, query, question, budget);
      if (outcome.ok || !outcome.unreached) return outcome.ok ? outcome : { ok: false, failure: outcome.failure };
      failure = outcome.failure;
    }
    return { ok: false, failure };
  }

  /** UDP, then TCP when the answer is truncated and the budget allows; a truncated answer is shown as such otherwise. */
  private async askServer(
    server: { host: string; port: number },
    query: (id: number) => Buffer,
    question: DigQuestion,
    budget: DnsQueryBudget,
  ): Promise<{ ok: true; answer: DigAnswer } | Extract<Exchange, { ok: false }>> {
    if (!budget.take(1)) return { ok: false, failure: 'queryCap', unreached: false };
    const udp = await this.overUdp(server, query, question);
    if (!udp.ok) return udp;
    if (!udp.packet.flag_tc || !budget.take(1)) return { ok: true, answer: answerOf(udp.packet, 'udp') };
    const tcp = await this.overTcp(server, query, question);
    return tcp.ok ? { ok: true, answer: answerOf(tcp.packet, 'tcp') } : tcp;
  }

  private overUdp(server: { host: string; port: number }, query: (id: number) => Buffer, question: DigQuestion): Promise<Exchange> {
    const id = randomInt(0x10000);
    const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    return new Promise<Exchange>((resolve) => {
      const finish = (exchange: Exchange) => {
        clearTimeout(timer);
        socket.close();
        resolve(exchange);
      };
      const timer = setTimeout(() => finish({ ok: false, failure: 'timedOut', unreached: true }), this.timeoutMs);
      socket.on('error', () => finish({ ok: false, failure: 'serverFailed', unreached: true }));
      socket.on('message', (message, from) => {
        // Only the server asked, answering this query: anything else (a stray or forged packet) is ignored.
        if (from.port !== server.port) return;
        const packet = decodeAnswer(message, id, question);
        if (packet !== undefined) finish({ ok: true, packet });
      });
      socket.send(query(id), server.port, server.host);
    });
  }

  private overTcp(server: { host: string; port: number }, query: (id: number) => Buffer, question: DigQuestion): Promise<Exchange> {
    const id = randomInt(0x10000);
    const message = query(id);
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16BE(message.length);
    return new Promise<Exchange>((resolve) => {
      const socket = connect({ host: server.host, port: server.port });
      let received = Buffer.alloc(0);
      const finish = (exchange: Exchange) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(exchange);
      };
      const timer = setTimeout(() => finish({ ok: false, failure: 'timedOut', unreached: true }), this.timeoutMs);
      socket.on('error', () => finish({ ok: false, failure: 'serverFailed', unreached: true }));
      socket.on('connect', () => socket.write(Buffer.concat([prefix, message])));
      socket.on('data', (chunk) => {
        received = Buffer.concat([received, chunk]);
        if (received.length > MAX_MESSAGE_BYTES + 2) return finish({ ok: false, failure: 'serverFailed', unreached: false });
        if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
        const packet = decodeAnswer(received.subarray(2, 2 + received.readUInt16BE(0)), id, question);
        finish(packet === undefined ? { ok: false, failure: 'serverFailed', unreached: false } : { ok: true, packet });
      });
    });
  }

  private async overHttps(url: string, message: Buffer, question: DigQuestion): Promise<Exchange> {
    const target = new URL(url);
    target.searchParams.set('dns', message.toString('base64url'));
    try {
      const response = await request(target, {
        method: 'GET',
        headers: { accept: 'application/dns-message', 'user-agent': USER_AGENT },
        dispatcher: this.options.dispatcher,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const tooLarge = () => new Error('DNS-over-HTTPS answer over 64 KiB');
      const body = await readBoundedBody(response.body, { maxBytes: MAX_MESSAGE_BYTES, tooLarge });
      const type = String(response.headers['content-type'] ?? '');
      if (response.statusCode !== 200 || !type.startsWith('application/dns-message')) return { ok: false, failure: 'serverFailed', unreached: false };
      const packet = decodeAnswer(body, 0, question);
      return packet === undefined ? { ok: false, failure: 'serverFailed', unreached: false } : { ok: true, packet };
    } catch (error) {
      const name = (error as { name?: unknown } | null)?.name;
      return { ok: false, failure: name === 'TimeoutError' || name === 'AbortError' ? 'timedOut' : 'serverFailed', unreached: true };
    }
  }
}

/** The answer to `id` about `question`, or undefined for a message that is not one. */
function decodeAnswer(message: Buffer, id: number, question: DigQuestion): DecodedPacket | undefined {
  try {
    const packet = dnsPacket.decode(message);
    const [asked] = packet.questions ?? [];
    const same = asked !== undefined && asked.type === question.type && asked.name.toLowerCase().replace(/\.$/, '') === question.name;
    return packet.type === 'response' && packet.id === id && same ? packet : undefined;
  } catch {
    return undefined;
  }
}

function answerOf(packet: DecodedPacket, transport: DigAnswer['transport']): DigAnswer {
  const { records, hidden } = withoutPrivateAddresses(digRecordsOf(packet.answers ?? []));
  const rcode = (packet as { rcode?: unknown }).rcode;
  return { rcode: typeof rcode === 'string' ? rcode : 'UNKNOWN', authentic: packet.flag_ad, truncated: packet.flag_tc, records, hiddenPrivate: hidden, transport };
}

/** `1.2.3.4`, `1.2.3.4:5353`, `::1`, `[::1]:53` → host and port (53 by default). */
function parseServer(server: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (isIP(server) !== 0) return { host: server, port: 53 };
  const [host = server, port = '53'] = server.split(':');
  return { host, port: Number(port) };
}
