import type { LookupTarget } from '../../ip/lookup-entry.js';
import { planLocations, type LookupOutcome } from '../../ip/resolution.js';
import { describeSpecialRange } from '../../ip/special-ranges.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import { DnsQueryBudget, type DnsResolver } from '../dns/dns.js';
import type { GeoService } from './geojs.js';

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
}
