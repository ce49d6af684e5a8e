import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../src/ip/address.js';
import { parseLookupEntry } from '../../src/ip/lookup-entry.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { PUBLIC_DOMAIN } from '../helpers/ip-fixtures.js';

const RUNS = fuzzRuns(1_000);
const port = fc.integer({ min: 0, max: 65535 });
// A URL's path as RFC 3986 allows it (unreserved and sub-delimiter characters, ':', '@' and
// percent-escapes). fc.webPath() would first build a table of every percent-encodable character:
// over a second of CPU in each test process.
const path = fc
  .array(fc.stringMatching(/^([\w\-.~!$&'()*+,;=:@]|%[0-9A-F]{2}){0,8}$/), { maxLength: 4 })
  .map((segments) => segments.map((segment) => `/${segment}`).join(''));
const userinfo = fc.option(fc.stringMatching(/^[a-z0-9:]{1,12}$/), { nil: undefined });

describe('parseLookupEntry', () => {
  it('keeps only the host of a URL, host:port or [v6]:port', () => {
    expect(parseLookupEntry('https://alice@CDN.example.net:8443/x.js?v=1#top')).toEqual({ ok: true, target: { kind: 'name', name: 'cdn.example.net', display: 'cdn.example.net' } });
    expect(parseLookupEntry('http://[2001:DB8::1]:8080/')).toEqual({ ok: true, target: { kind: 'address', address: '2001:db8::1' } });
    expect(parseLookupEntry('ssh://git@203.0.113.9:22')).toEqual({ ok: true, target: { kind: 'address', address: '203.0.113.9' } });
    expect(parseLookupEntry('[::ffff:8.8.8.8]:53')).toEqual({ ok: true, target: { kind: 'address', address: '8.8.8.8' } });
    expect(parseLookupEntry('[example.com]:53')).toEqual({ ok: false, problem: 'notAddress' });
  });

  it('reads a name in a URL, with a port, a user and a path, as the name alone', () => {
    fc.assert(
      fc.property(PUBLIC_DOMAIN, port, path, userinfo, (name, portNumber, rest, user) => {
        const alone = parseLookupEntry(name);
        expect(alone.ok).toBe(true);
        expect(parseLookupEntry(`${name}:${portNumber}`)).toEqual(alone);
        expect(parseLookupEntry(`https://${user === undefined ? '' : `${user}@`}${name}:${portNumber}${rest}`)).toEqual(alone);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads an address with a port, or in a URL, as the canonical address', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), port, path, (ip, portNumber, rest) => {
        const canonical = parseIpAddress(ip);
        if (!canonical.ok) return;
        const expected = { ok: true, target: { kind: 'address', address: canonical.address } };
        const bracketed = ip.includes(':') ? `[${ip}]` : ip;
        expect(parseLookupEntry(ip)).toEqual(expected);
        expect(parseLookupEntry(`${bracketed}:${portNumber}`)).toEqual(expected);
        expect(parseLookupEntry(`http://${bracketed}:${portNumber}${rest}`)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });
});
