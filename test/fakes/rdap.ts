import { FakeServer, json, type FakeResponse, type RecordedRequest } from './fake-server.js';

/**
 * Fake RDAP registries and IANA's bootstrap (upstreams.md § 7), each registry a server of its own
 * (its own origin, so its own limiter): "arin" (addresses, AS numbers; a transfer redirect, a
 * redirect off the bootstrap's servers, a 429, a body over 256 KiB, a network without an abuse
 * contact), "ripe" (a network whose abuse contact is nested in the registrant; the other half of a
 * redirect loop) and "verisign" (`.com`). The bootstrap also names an `https` server, which a
 * client reading the bootstrap over `http` must never ask (the network fence would refuse it).
 */

const vcard = (name: string, extra: unknown[][] = []) => ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', name], ...extra]];

const GOOGLE_NETWORK = {
  objectClassName: 'ip network',
  handle: 'NET-8-8-8-0-2',
  startAddress: '8.8.8.0',
  endAddress: '8.8.8.255',
  ipVersion: 'v4',
  name: 'GOGL',
  type: 'DIRECT ALLOCATION',
  cidr0_cidrs: [{ v4prefix: '8.8.8.0', length: 24 }],
  events: [
    { eventAction: 'registration', eventDate: '2023-12-28T17:24:33-05:00' },
    { eventAction: 'last changed', eventDate: '2023-12-28T17:24:56-05:00' },
  ],
  entities: [
    {
      handle: 'GOGL',
      roles: ['registrant'],
      vcardArray: vcard('Google LLC'),
      entities: [
        { handle: 'ABUSE5250-ARIN', roles: ['abuse'], vcardArray: vcard('Abuse', [['email', {}, 'text', 'network-abuse@google.com'], ['tel', { type: ['work', 'voice'] }, 'text', '+1-650-253-0000']]) },
      ],
    },
  ],
};

const ARIN_OBJECTS: Record<string, unknown> = {
  'ip/8.8.8.8': GOOGLE_NETWORK,
  'ip/8.8.4.4': {
    objectClassName: 'ip network',
    handle: 'NET-8-8-4-0-1',
    startAddress: '8.8.4.0',
    endAddress: '8.8.4.255',
    name: 'NO-ABUSE-NET',
    entities: [{ roles: ['registrant'], vcardArray: vcard('Quiet Networks Inc.') }],
  },
  'ip/2001:4860:4860::8888': {
    objectClassName: 'ip network',
    handle: 'NET6-2001-4860-1',
    startAddress: '2001:4860::',
    endAddress: '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff',
    name: 'GOOGLE-IPV6',
    entities: [{ roles: ['abuse'], vcardArray: vcard('Abuse', [['email', {}, 'text', 'network-abuse@google.com']]) }],
  },
  'autnum/13335': {
    objectClassName: 'autnum',
    handle: 'AS13335',
    startAutnum: 13335,
    endAutnum: 13335,
    name: 'CLOUDFLARENET',
    entities: [
      { roles: ['registrant'], vcardArray: vcard('Cloudflare, Inc.') },
      { roles: ['abuse'], vcardArray: vcard('Abuse', [['email', {}, 'text', 'abuse@cloudflare.com']]) },
    ],
  },
};

const RIPE_OBJECTS: Record<string, unknown> = {
  'ip/81.2.69.142': {
    objectClassName: 'ip network',
    handle: '81.2.69.0 - 81.2.69.255',
    startAddress: '81.2.69.0',
    endAddress: '81.2.69.255',
    name: 'LONDON-NET',
    country: 'GB',
    entities: [
      { roles: ['registrant'], vcardArray: vcard('London Hosting Ltd'), entities: [{ roles: ['abuse'], vcardArray: vcard('Abuse desk', [['email', {}, 'text', 'abuse@london.example']]) }] },
    ],
  },
  'ip/8.1.2.3': {
    objectClassName: 'ip network',
    startAddress: '8.1.2.0',
    endAddress: '8.1.3.255',
    name: 'TRANSFERRED-NET',
    country: 'NL',
    entities: [{ roles: ['abuse'], vcardArray: vcard('Abuse', [['email', {}, 'text', 'abuse@transferred.example']]) }],
  },
};

const VERISIGN_OBJECTS: Record<string, unknown> = {
  'domain/example.com': {
    objectClassName: 'domain',
    ldhName: 'EXAMPLE.COM',
    status: ['client delete prohibited', 'client transfer prohibited'],
    nameservers: [{ ldhName: 'A.IANA-SERVERS.NET' }, { ldhName: 'B.IANA-SERVERS.NET' }],
    events: [
      { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
      { eventAction: 'expiration', eventDate: '2026-08-13T04:00:00Z' },
    ],
    entities: [
      {
        roles: ['registrar'],
        vcardArray: vcard('RESERVED-Internet Assigned Numbers Authority'),
        entities: [{ roles: ['abuse'], vcardArray: vcard('Abuse', [['email', {}, 'text', 'abuse@iana.org']]) }],
      },
    ],
  },
};

const notFound = (): FakeResponse => json(404, { errorCode: 404, title: 'Not Found' }, { 'content-type': 'application/rdap+json' });
const rdapJson = (body: unknown): FakeResponse => json(200, body, { 'content-type': 'application/rdap+json' });

/** One registry: its objects under `prefix`, and per-path answers that stand in for them (redirects, 429s…). */
export class FakeRdapRegistry extends FakeServer {
  readonly special = new Map<string, () => FakeResponse>();

  constructor(
    readonly prefix: string,
    private readonly objects: Record<string, unknown>,
  ) {
    super((request) => this.route(request));
  }

  get base(): string {
    return `${this.url}${this.prefix}`;
  }

  /** Requests for one object path (`ip/8.8.8.8`). */
  asked(path: string): RecordedRequest[] {
    return this.requestsTo(`${this.prefix}${path}`);
  }

  private route(request: RecordedRequest): FakeResponse {
    if (!request.path.startsWith(this.prefix)) return notFound();
    const path = decodeURIComponent(request.path.slice(this.prefix.length));
    const special = this.special.get(path);
    if (special) return special();
    const object = this.objects[path];
    return object === undefined ? notFound() : rdapJson(object);
  }
}

export interface FakeRdap {
  /** `RDAP_BOOTSTRAP_URL` for the client. */
  bootstrapUrl: string;
  iana: FakeServer;
  arin: FakeRdapRegistry;
  ripe: FakeRdapRegistry;
  verisign: FakeRdapRegistry;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeRdap(): Promise<FakeRdap> {
  const arin = await new FakeRdapRegistry('/registry/', ARIN_OBJECTS).start();
  const ripe = await new FakeRdapRegistry('/ripe/', RIPE_OBJECTS).start();
  const verisign = await new FakeRdapRegistry('/com/v1/', VERISIGN_OBJECTS).start();
  // The base IANA lists over https for a range: a client on the http fake's scheme keeps none of it.
  const httpsOnly = 'https://rdap.example.net/';
  const files: Record<string, unknown> = {
    'ipv4.json': {
      version: '1.0',
      publication: '2026-11-01T00:00:00Z',
      services: [
        [['8.0.0.0/8', '23.0.0.0/8'], [arin.base]],
        [['81.0.0.0/8'], [ripe.base]],
        [['9.0.0.0/8'], [httpsOnly]],
      ],
    },
    'ipv6.json': { version: '1.0', services: [[['2001:4800::/23'], [arin.base]], [['2001:600::/23'], [ripe.base]]] },
    'asn.json': { version: '1.0', services: [[['13312-18431'], [arin.base]], [['3333'], [ripe.base]]] },
    'dns.json': { version: '1.0', services: [[['com', 'net'], [verisign.base]], [['org'], [httpsOnly]]] },
  };
  const iana = await new FakeServer((request) => {
    const file = files[request.path.replace(/^\/rdap\//, '')];
    return file === undefined ? notFound() : json(200, file);
  }).start();
  const redirect = (status: number, location: string) => () => ({ status, headers: { location }, body: '' });
  const defaults = () => {
    arin.special.clear();
    ripe.special.clear();
    // A range transferred to another registry: the first registry points at it.
    arin.special.set('ip/8.1.2.3', redirect(301, `${ripe.base}ip/8.1.2.3`));
    // A redirect to a server the bootstrap does not name.
    arin.special.set('ip/8.6.6.6', redirect(302, 'http://127.0.0.1:9/elsewhere/ip/8.6.6.6'));
    // Two registries pointing at each other.
    arin.special.set('ip/8.9.9.9', redirect(301, `${ripe.base}ip/8.9.9.9`));
    ripe.special.set('ip/8.9.9.9', redirect(301, `${arin.base}ip/8.9.9.9`));
    arin.special.set('ip/8.4.2.9', () => ({ status: 429, headers: { 'retry-after': '30', 'content-type': 'application/rdap+json' }, body: '{"errorCode":429}' }));
    arin.special.set('ip/8.7.7.7', () => rdapJson({ ...GOOGLE_NETWORK, remarks: [{ description: ['x'.repeat(300 * 1024)] }] }));
  };
  defaults();
  return {
    bootstrapUrl: `${iana.url}/rdap`,
    iana,
    arin,
    ripe,
    verisign,
    reset() {
      for (const server of [iana, arin, ripe, verisign]) server.reset();
      defaults();
    },
    async close() {
      await Promise.all([iana, arin, ripe, verisign].map((server) => server.close()));
    },
  };
}
