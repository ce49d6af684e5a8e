import type { GeoRecord } from '../../ip/geo-record.js';
import type { LookupTarget } from '../../ip/lookup-entry.js';
import { planLocations, type LookupOutcome } from '../../ip/resolution.js';
import { describeSpecialRange } from '../../ip/special-ranges.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import { DnsQueryBudget, type DnsResolver } from '../dns/dns.js';
import type { GeoService } from './geojs.js';

/** Addresses of a log sent at a time: GeoJS's batch size, so a log holds one place in its queue at a time. */
const LOG_BATCH = 50;

interface LocateOptions {
  /** Most addresses located (the command's cap). */
  max: number;
  /** Ask for each located public address's PTR name (`/ip time` has no use for it). */
  reverse: boolean;
}

/**
 * What `/ip` and Locate IP do with what a member typed: names resolved (at most 40 DNS queries for
 * the whole command), the addresses to locate chosen, all of them sent to GeoJS in one batch while
 * their reverse names are asked beside it. Every request is spent from `share`.
 */
export class IpLookup {
  constructor(
    private readonly geo: GeoService,
    private readonly dns: DnsResolver,
  ) {}

  async locate(targets: readonly LookupTarget[], options: LocateOptions, share?: MemberShareSpender): Promise<LookupOutcome> {
    const budget = new DnsQueryBudget();
    const names = targets.flatMap((target) => (target.kind === 'name' ? [target.name] : []));
    const resolutions = await this.dns.resolveNames(names, budget, share);
    const plan = planLocations(targets, resolutions, options.max);
    const addresses = plan.addresses.map((planned) => planned.address);
    const routable = addresses.filter((address) => describeSpecialRange(address) === null);
    const [records, reverses] = await Promise.all([
      this.geo.lookup(addresses, share),
      options.reverse ? this.dns.reverseNames(routable, budget) : new Map(),
    ]);
    const results = plan.addresses.map(({ address, from }) => {
      const reverse = reverses.get(address);
      return { address, from, record: records.get(address)!, specialRange: describeSpecialRange(address), ...(reverse ? { reverse } : {}) };
    });
    return { results, notes: plan.notes, notLocated: plan.notLocated };
  }

  /**
   * A whole log's public addresses located, a batch after another (never all queued at once: another
   * member's lookup meanwhile waits behind one batch, not twenty). Special-range addresses are never
   * sent. `onProgress` hears how many are done after each batch.
   */
  async locateLog(
    addresses: readonly string[],
    share: MemberShareSpender,
    onProgress: (done: number, total: number) => Promise<void>,
  ): Promise<Map<string, GeoRecord>> {
    const routable = addresses.filter((address) => describeSpecialRange(address) === null);
    const records = new Map<string, GeoRecord>();
    for (let start = 0; start < routable.length; start += LOG_BATCH) {
      for (const [address, record] of await this.geo.lookup(routable.slice(start, start + LOG_BATCH), share)) records.set(address, record);
      await onProgress(Math.min(start + LOG_BATCH, routable.length), routable.length);
    }
    return records;
  }
}
