import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../src/ip/address.js';
import { isLogName, logText, tallyIpAddresses } from '../../src/ip/address-list.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const RUNS = fuzzRuns(500);
const canonical = (address: string) => {
  const parsed = parseIpAddress(address);
  return parsed.ok ? parsed.address : address;
};
/** Log noise that holds no address: words, versions, times, paths. */
/**
 * Any address but the deprecated IPv4-compatible form written `::a.b.c.d`, which the finder reads
 * as the IPv4 address it carries (as Locate IP always has).
 */
const address = fc.oneof(fc.ipV4(), fc.ipV6().filter((v6) => !/^::[0-9a-f]*\./i.test(v6)));
const noise = fc.constantFrom('sshd[811]: Failed password for root', 'v1.2.3', '12:30:45', 'GET /index.html 200', 'app.worker.start', 'build 10.20.30', ' ', '\n', '-', '=');

describe('tallyIpAddresses', () => {
  it('counts every address of a log however it is written around, canonically, in order of first appearance', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(address, noise, fc.constantFrom('', ' port 22', ':443', '/24')), { minLength: 1, maxLength: 40 }),
        (entries) => {
          const text = entries
            .map(([address, around, suffix]) => `${around} ${address.includes(':') && suffix === ':443' ? `[${address}]` : address}${suffix} ${around}`)
            .join('\n');
          const expected = new Map<string, number>();
          for (const [address] of entries) expected.set(canonical(address), (expected.get(canonical(address)) ?? 0) + 1);
          const { counts, skipped } = tallyIpAddresses(text);
          expect([...counts]).toEqual([...expected]);
          expect(skipped).toBe(0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('keeps at most `max` distinct addresses, counting the rest as skipped, and finds nothing in noise', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.ipV4(), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 30 }), (addresses, max) => {
        const { counts, skipped } = tallyIpAddresses(addresses.join(' and '), max);
        const distinct = new Set(addresses.map(canonical)).size;
        expect(counts.size).toBe(Math.min(max, distinct));
        expect(skipped).toBe(distinct - counts.size);
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.array(noise, { maxLength: 30 }), (words) => {
        expect(tallyIpAddresses(words.join(' ')).counts.size).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws, and finds only canonical addresses, in any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        for (const address of tallyIpAddresses(text).counts.keys()) expect(canonical(address)).toBe(address);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('logText and isLogName', () => {
  it('reads UTF-8 (damaged bytes replaced) and refuses binary', () => {
    expect(logText(Buffer.from('from 1.2.3.4 \xff', 'latin1'))).toBe('from 1.2.3.4 \ufffd');
    expect(logText(Buffer.from([0x7f, 0x45, 0, 1]))).toBeNull();
  });

  it('takes text names and names without an extension for logs, not images', () => {
    expect(['auth.log', 'access.LOG', 'dump.txt', 'events.jsonl', 'syslog'].every(isLogName)).toBe(true);
    expect(['photo.png', 'capture.pcap', 'archive.tar.gz'].some(isLogName)).toBe(false);
  });
});
