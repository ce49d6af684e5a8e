import { isIP } from 'node:net';
import { FakeServer, htmlPage, type FakeResponse, type RecordedRequest } from './fake-server.js';

/**
 * A fake get.geojs.io, faithful to upstreams.md §1 (jloh/geojs): sorted keys, `\/` escaping, a
 * trailing newline, lat/lon as strings or the literal "nil", the "unknown" record for anything it
 * has no data for (including invalid entries in an `?ip=` list), arrays for the list form, an HTML
 * 404 for any path that is not a route (including a path `<ip>` that fails the strict regex), JSONP
 * with an escaped callback, and the plain-text country endpoints printing `nil`.
 */

/** The fields GeoJS builds from MaxMind; `ip` and `area_code` are added per request. */
export interface FakeGeoFields {
  accuracy?: number;
  asn: number;
  city?: string;
  continent_code?: string;
  country?: string;
  country_code?: string;
  country_code3?: string;
  latitude: string;
  longitude: string;
  organization_name: string;
  region?: string;
  timezone?: string;
}

const UNKNOWN: FakeGeoFields = { asn: 64512, latitude: 'nil', longitude: 'nil', organization_name: 'Unknown' };

/** Known addresses (keys canonical: lowercase compressed IPv6). Everything else is "unknown". */
export const FAKE_GEO_RECORDS: Readonly<Record<string, FakeGeoFields>> = {
  // Country-level only: no city/region, as MaxMind has it for Google's anycast.
  '8.8.8.8': {
    accuracy: 1000,
    asn: 15169,
    continent_code: 'NA',
    country: 'United States',
    country_code: 'US',
    country_code3: 'USA',
    latitude: '37.751',
    longitude: '-97.822',
    organization_name: 'Google LLC',
    timezone: 'America/Chicago',
  },
  // ASN known, no geo at all (the 2026 answer for 1.1.1.1).
  '1.1.1.1': { asn: 13335, latitude: 'nil', longitude: 'nil', organization_name: 'Cloudflare, Inc.' },
  '2001:4860:4860::8888': {
    accuracy: 1000,
    asn: 15169,
    continent_code: 'NA',
    country: 'United States',
    country_code: 'US',
    country_code3: 'USA',
    latitude: '37.751',
    longitude: '-97.822',
    organization_name: 'Google LLC',
    timezone: 'America/Chicago',
  },
  '81.2.69.142': {
    accuracy: 10,
    asn: 20712,
    city: 'London',
    continent_code: 'EU',
    country: 'United Kingdom',
    country_code: 'GB',
    country_code3: 'GBR',
    latitude: '51.5142',
    longitude: '-0.0931',
    organization_name: 'Andrews & Arnold Ltd',
    region: 'England',
    timezone: 'Europe/London',
  },
  '202.12.27.33': {
    accuracy: 100,
    asn: 7500,
    city: 'Tokyo',
    continent_code: 'AS',
    country: 'Japan',
    country_code: 'JP',
    country_code3: 'JPN',
    latitude: '35.6893',
    longitude: '139.6899',
    organization_name: 'M-ROOT-DNS WIDE Project',
    region: 'Tokyo',
    timezone: 'Asia/Tokyo',
  },
};

/** The strict path regex of the real routes: dotted IPv4 or IPv6 (no zone id), nothing else. */
const PATH_IP = /^[0-9A-Fa-f:.]+$/;

function canonical(ip: string): string | undefined {
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version === 6) return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  return undefined;
}

/** cjson-like encoding: keys sorted (sorted_encode), `/` escaped as `\/`. */
export function geoJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/\//g, '\\/');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export class FakeGeoJs extends FakeServer {
  private readonly records = new Map<string, FakeGeoFields>(Object.entries(FAKE_GEO_RECORDS));
  /** Fault knobs for the client's answer-matching: list answers in another order, or with odd echoes. */
  answerOrder: 'asked' | 'reversed' = 'asked';
  echo: 'asked' | 'omitted' | 'uppercase' = 'asked';
  /** The address the fake says a caller comes from (the real one would see a public address). */
  callerIp = '127.0.0.1';
  /** Canned answers for the next requests, served first-in first-out before any route. */
  readonly nextResponses: FakeResponse[] = [];

  constructor() {
    super((request) => this.route(request));
  }

  /** Sets (or with `null`, removes) the record of an address. */
  setRecord(ip: string, fields: FakeGeoFields | null): void {
    const key = canonical(ip);
    if (key === undefined) throw new TypeError(`FakeGeoJs.setRecord: not an IP address: ${ip}`);
    if (fields === null) this.records.delete(key);
    else this.records.set(key, fields);
  }

  override reset(): void {
    super.reset();
    this.answerOrder = 'asked';
    this.echo = 'asked';
    this.callerIp = '127.0.0.1';
    this.nextResponses.length = 0;
    this.records.clear();
    for (const [ip, fields] of Object.entries(FAKE_GEO_RECORDS)) this.records.set(ip, fields);
  }

  /** The geo record GeoJS builds for one requested string (echoed as given, never normalised). */
  geoRecord(asked: string): Record<string, unknown> {
    const key = canonical(asked);
    const fields = (key !== undefined ? this.records.get(key) : undefined) ?? UNKNOWN;
    const record: Record<string, unknown> = {
      ...fields,
      area_code: '0',
      organization: `AS${fields.asn} ${fields.organization_name}`,
    };
    if (this.echo === 'asked') record.ip = asked;
    else if (this.echo === 'uppercase') record.ip = asked.toUpperCase();
    return record;
  }

  private route(request: RecordedRequest): FakeResponse {
    const canned = this.nextResponses.shift();
    if (canned) return canned;
    const { path, query } = request;
    const list = query.get('ip');
    const callerIp = this.callerIp;

    switch (path) {
      case '/v1/ip':
        return plain(callerIp);
      case '/v1/ip.json':
        return body('application/json', geoJson({ ip: callerIp }));
      case '/v1/ip/geo.json':
        return body('application/json', geoJson(list === null ? this.geoRecord(callerIp) : this.listAnswer(list, (ip) => this.geoRecord(ip))));
      case '/v1/ip/geo.js': {
        const payload = list === null ? this.geoRecord(callerIp) : this.listAnswer(list, (ip) => this.geoRecord(ip));
        return body('application/javascript', `${callback(query, 'geoip')}(${geoJson(payload)})`);
      }
      case '/v1/ip/country':
        return list === null ? plain(this.countryCode(callerIp)) : this.plainList(list, (ip) => this.countryCode(ip));
      case '/v1/ip/country.json':
        return body('application/json', geoJson(list === null ? this.countryRecord(callerIp) : this.listAnswer(list, (ip) => this.countryRecord(ip))));
      default:
        return this.pathRoute(path, query);
    }
  }

  private pathRoute(path: string, query: URLSearchParams): FakeResponse {
    const match = /^\/v1\/ip\/(geo|country)\/([^/]+?)(\.json|\.js)?$/.exec(path);
    const ip = match?.[2] === undefined ? undefined : decodeURIComponent(match[2]);
    // Routes match only a strict address; anything else falls through to OpenResty's HTML 404.
    if (!match || ip === undefined || !PATH_IP.test(ip) || isIP(ip) === 0) return htmlPage(404, '404 Not Found', { server: 'openresty' });
    const [, kind, , extension] = match;
    if (kind === 'geo') {
      // Production redirects the extension-less geo form to `.json` (the repo has no such route).
      if (extension === undefined) return { status: 301, headers: { location: `${path}.json` }, body: '' };
      const record = geoJson(this.geoRecord(ip));
      return extension === '.json' ? body('application/json', record) : body('application/javascript', `${callback(query, 'geoip')}(${record})`);
    }
    if (extension === undefined) return plain(this.countryCode(ip));
    const record = geoJson(this.countryRecord(ip));
    return extension === '.json' ? body('application/json', record) : body('application/javascript', `${callback(query, 'countryip')}(${record})`);
  }

  /** `?ip=a,b`: split on commas without trimming (" 1.1.1.1" is an unknown entry), one entry each. */
  private listAnswer(list: string, build: (ip: string) => Record<string, unknown>): unknown {
    // An empty list encodes as an empty Lua table, which cjson writes as an object.
    if (list === '') return {};
    const answers = list.split(',').filter((entry) => entry !== '').map(build);
    return this.answerOrder === 'reversed' ? answers.reverse() : answers;
  }

  private countryCode(ip: string): string {
    const key = canonical(ip);
    return (key !== undefined ? this.records.get(key)?.country_code : undefined) ?? 'nil';
  }

  private countryRecord(ip: string): Record<string, unknown> {
    const key = canonical(ip);
    const fields = key !== undefined ? this.records.get(key) : undefined;
    return { ip, country: fields?.country_code, country_3: fields?.country_code3, name: fields?.country };
  }

  /** The plain-text list concatenates `nil` into a string in Lua: an unknown entry is a 500. */
  private plainList(list: string, build: (ip: string) => string): FakeResponse {
    const lines = list.split(',').map((ip) => [ip, build(ip)] as const);
    if (lines.some(([, value]) => value === 'nil')) return htmlPage(500, '500 Internal Server Error', { server: 'openresty' });
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: lines.map(([ip, value]) => `${ip}: ${value}\n`).join('') };
  }
}

function body(contentType: string, text: string): FakeResponse {
  return {
    status: 200,
    headers: { 'content-type': contentType, 'access-control-allow-origin': '*', 'cache-control': 'private, no-store' },
    body: `${text}\n`,
  };
}

function plain(text: string): FakeResponse {
  return body('text/plain', text);
}

/** `ngx.escape_uri` of the callback name: `<script>` → `%3Cscript%3E`. */
function callback(query: URLSearchParams, fallback: string): string {
  const name = query.get('callback');
  return name === null ? fallback : encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export async function startFakeGeoJs(): Promise<FakeGeoJs> {
  return new FakeGeoJs().start();
}
