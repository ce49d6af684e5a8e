import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Question } from 'dns-packet';

/**
 * A fake recursive DNS server on 127.0.0.1, speaking the real wire format (dns-packet) over UDP and
 * TCP on one port, as `DNS_SERVERS` points at it. Each name answers A, AAAA, PTR and CNAME records
 * from its zone entry, or misbehaves as told: NXDOMAIN, SERVFAIL, never (the client times out), or
 * truncated over UDP (the client asks again over TCP); `silent` answers nothing at all. A UDP
 * answer that does not fit the client's advertised size is truncated the same way, as real servers
 * do. Unknown names are NXDOMAIN. Every query received (UDP or TCP) is recorded in `queries`: what
 * the client put on the wire.
 */

export interface FakeZoneEntry {
  A?: string[];
  AAAA?: string[];
  /** The PTR name, for an entry keyed by its `in-addr.arpa` / `ip6.arpa` name (see `setReverse`). */
  PTR?: string;
  /** An alias: the answer holds the CNAME and, followed within the zone, its target's records. */
  CNAME?: string;
  behaviour?: 'answer' | 'nxdomain' | 'servfail' | 'never' | 'truncate';
  /** Seconds (default 300). */
  ttl?: number;
  /** Answer this long after the query arrives, as a far-away or busy server does. */
  delayMs?: number;
  /** Records of any other type (MX, TXT, SOA, CAA, SRV, DS, DNSKEY…), answered to a question of their type. */
  records?: Answer[];
  /** Set AD in the answer, as a validating resolver does for a signed zone. */
  authentic?: boolean;
}

export interface RecordedQuery {
  name: string;
  type: string;
  transport: 'udp' | 'tcp' | 'https';
}

const NXDOMAIN = 3;
const SERVFAIL = 2;
const CLASSIC_UDP_SIZE = 512;

/** `1.2.3.4` → `4.3.2.1.in-addr.arpa`; IPv6 nibbles reversed under `ip6.arpa` (the address in full form). */
export function reverseName(address: string): string {
  if (!address.includes(':')) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const missing = 8 - groups(head).length - groups(tail).length;
  const full = [...groups(head), ...Array<string>(address.includes('::') ? missing : 0).fill('0'), ...groups(tail)];
  return `${[...full.map((group) => group.padStart(4, '0')).join('')].reverse().join('.')}.ip6.arpa`;
}

export class FakeDns {
  readonly queries: RecordedQuery[] = [];
  /** Answer nothing at all (queries are still recorded), as a server that is down or behind a firewall. */
  silent = false;
  private readonly zone = new Map<string, FakeZoneEntry>();
  private readonly tcpSockets = new Set<Socket>();
  private readonly delayed = new Set<NodeJS.Timeout>();
  private udp: UdpSocket | undefined;
  private tcp: Server | undefined;
  private port = 0;

  /** `127.0.0.1:<port>`, as `DNS_SERVERS` takes it. */
  get server(): string {
    return `127.0.0.1:${this.port}`;
  }

  set(name: string, entry: FakeZoneEntry): void {
    this.zone.set(name.toLowerCase().replace(/\.$/, ''), entry);
  }

  /** The PTR record of an address (IPv4, or IPv6 in any spelling the fake's own expansion reads). */
  setReverse(address: string, name: string, entry: Omit<FakeZoneEntry, 'PTR'> = {}): void {
    this.set(reverseName(address), { ...entry, PTR: name });
  }

  /** The queries asked about `name` (any type, either transport). */
  queriesFor(name: string): RecordedQuery[] {
    return this.queries.filter((query) => query.name === name);
  }

  reset(): void {
    this.queries.length = 0;
    this.zone.clear();
    this.silent = false;
  }

  async start(): Promise<this> {
    // TCP first on a free port, then UDP on the same number (retried in the rare case it is taken).
    for (let attempt = 0; ; attempt++) {
      const tcp = createServer((socket) => this.serveTcp(socket));
      await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
      const { port } = tcp.address() as AddressInfo;
      const udp = createSocket('udp4');
      const bound = await new Promise<boolean>((resolve) => {
        udp.once('error', () => resolve(false));
        udp.bind(port, '127.0.0.1', () => resolve(true));
      });
      if (bound) {
        udp.on('message', (message, remote) => {
          const reply = this.answer(message, 'udp');
          if (reply) this.after(reply.delayMs, () => udp.send(reply.message, remote.port, remote.address));
        });
        [this.tcp, this.udp, this.port] = [tcp, udp, port];
        return this;
      }
      udp.close();
      await new Promise((resolve) => tcp.close(resolve));
      if (attempt >= 5) throw new Error('FakeDns: no port free for both UDP and TCP');
    }
  }

  async close(): Promise<void> {
    for (const timer of this.delayed) clearTimeout(timer);
    for (const socket of this.tcpSockets) socket.destroy();
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
  }

  private serveTcp(socket: Socket): void {
    this.tcpSockets.add(socket);
    socket.on('close', () => this.tcpSockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const reply = this.answer(buffered.subarray(2, 2 + length), 'tcp');
        buffered = buffered.subarray(2 + length);
        if (reply) this.after(reply.delayMs, () => socket.write(Buffer.concat([lengthPrefix(reply.message.length), reply.message])));
      }
    });
  }

  /** Runs `send` now, or after `delayMs` unless the fake is closed first. */
  private after(delayMs: number, send: () => void): void {
    if (delayMs <= 0) return send();
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      send();
    }, delayMs);
    this.delayed.add(timer);
  }

  /** The reply to one wire-format query, as DNS over HTTPS carries it (no delay), or undefined when the fake keeps silent. */
  reply(message: Buffer): Buffer | undefined {
    return this.answer(message, 'https')?.message;
  }

  /** The encoded reply to one query and when to send it, or undefined when the fake keeps silent. */
  private answer(message: Buffer, transport: RecordedQuery['transport']): { message: Buffer; delayMs: number } | undefined {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return undefined;
    }
    const question = query.questions?.[0];
    if (!question) return undefined;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    this.queries.push({ name, type: question.type, transport });
    const entry = this.zone.get(name);
    const behaviour = entry === undefined ? 'nxdomain' : (entry.behaviour ?? 'answer');
    if (behaviour === 'never' || this.silent) return undefined;
    const delayMs = entry?.delayMs ?? 0;
    const reply = (flags: number, answers: Answer[] = []) => ({
      delayMs,
      message: dnsPacket.encode({
        type: 'response',
        id: query.id,
        flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | flags,
        questions: [question],
        answers,
      }),
    });
    if (behaviour === 'nxdomain') return reply(NXDOMAIN);
    if (behaviour === 'servfail') return reply(SERVFAIL);
    if (behaviour === 'truncate' && transport === 'udp') return reply(dnsPacket.TRUNCATED_RESPONSE);
    const full = reply(entry?.authentic ? dnsPacket.AUTHENTIC_DATA : 0, this.records(question));
    const room = advertisedSize(query);
    return transport === 'udp' && full.message.length > room ? reply(dnsPacket.TRUNCATED_RESPONSE) : full;
  }

  /** The answer section: CNAMEs followed within the zone (a loop stops where it started), then the records asked. */
  private records(question: Question): Answer[] {
    const answers: Answer[] = [];
    const seen = new Set<string>();
    let name = question.name.toLowerCase().replace(/\.$/, '');
    let entry = this.zone.get(name);
    while (entry?.CNAME !== undefined && question.type !== 'CNAME' && !seen.has(name)) {
      seen.add(name);
      answers.push({ type: 'CNAME', name, ttl: entry.ttl ?? 300, data: entry.CNAME });
      name = entry.CNAME.toLowerCase().replace(/\.$/, '');
      entry = this.zone.get(name);
    }
    if (!entry) return answers;
    const ttl = entry.ttl ?? 300;
    if (question.type === 'A') for (const data of entry.A ?? []) answers.push({ type: 'A', name, ttl, data });
    if (question.type === 'AAAA') for (const data of entry.AAAA ?? []) answers.push({ type: 'AAAA', name, ttl, data });
    if (question.type === 'PTR' && entry.PTR !== undefined) answers.push({ type: 'PTR', name, ttl, data: entry.PTR });
    if (question.type === 'CNAME' && entry.CNAME !== undefined) answers.push({ type: 'CNAME', name, ttl, data: entry.CNAME });
    for (const record of entry.records ?? []) if (record.type === question.type) answers.push({ ...record, name } as Answer);
    return answers;
  }
}

/** The UDP size the client said it takes (EDNS), else the classic 512 octets. */
function advertisedSize(query: DecodedPacket): number {
  const opt = query.additionals?.find((record) => record.type === 'OPT') as { udpPayloadSize?: number } | undefined;
  return Math.max(CLASSIC_UDP_SIZE, opt?.udpPayloadSize ?? CLASSIC_UDP_SIZE);
}

function lengthPrefix(length: number): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(length);
  return prefix;
}

export async function startFakeDns(): Promise<FakeDns> {
  return new FakeDns().start();
}
