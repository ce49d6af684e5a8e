import { createSocket } from 'node:dgram';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsQueryBudget, DnsResolver, MAX_DNS_QUERIES_PER_COMMAND, type DnsResolverOptions } from '../../../src/services/dns/dns.js';
import { startFakeDns, type FakeDns } from '../../fakes/dns.js';

/** Each test uses names of its own: the resolver keeps answers for their TTL. */
describe('DnsResolver against a fake DNS server', () => {
  let fake: FakeDns;
  let resolver: DnsResolver;

  beforeAll(async () => {
    fake = await startFakeDns();
    // A short query deadline: the "never answers" cases wait for it.
    resolver = new DnsResolver({ servers: [fake.server], timeoutMs: 500, reverseWithinMs: 700 });
  });

  afterAll(async () => {
    resolver?.close();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  it('asks A and AAAA once each, lists A before AAAA canonically, and answers again from its cache for free', async () => {
    fake.set('dual.example', { A: ['140.82.121.4'], AAAA: ['2001:DB8:0:0::10'] });
    let spent = 0;
    const share = { beforeRequest: async () => void spent++ };
    const first = await resolver.resolveNames(['dual.example'], new DnsQueryBudget(), share);
    expect(first.get('dual.example')).toEqual({ ok: true, addresses: ['140.82.121.4', '2001:db8::10'] });
    expect(fake.queries.map((query) => query.type).sort()).toEqual(['A', 'AAAA']);
    const again = await resolver.resolveNames(['dual.example'], new DnsQueryBudget(), share);
    expect(again.get('dual.example')).toEqual(first.get('dual.example'));
    expect(fake.queries).toHaveLength(2);
    expect(spent).toBe(1);
  });

  it('says why a name gave nothing: no such name, a failing server, no answer in time, no address', async () => {
    fake.set('fail.example', { behaviour: 'servfail' });
    fake.set('slow.example', { behaviour: 'never' });
    fake.set('empty.example', { CNAME: 'nowhere.empty.example' });
    fake.set('nowhere.empty.example', {});
    const answers = await resolver.resolveNames(['gone.example', 'fail.example', 'slow.example', 'empty.example'], new DnsQueryBudget());
    expect(Object.fromEntries(answers)).toEqual({
      'gone.example': { ok: false, failure: 'noSuchName' },
      'fail.example': { ok: false, failure: 'serverFailed' },
      'slow.example': { ok: false, failure: 'timedOut' },
      'empty.example': { ok: false, failure: 'noAddress' },
    });
    // One try each: no retry doubles the wait or the queries.
    expect(fake.queriesFor('slow.example')).toHaveLength(2);
  });

  it('waits its whole deadline for a slow answer after fast ones: nothing learnt shortens it', async () => {
    // The default 2 s deadline; c-ares would time out after ~1 s once it had seen fast answers.
    const patient = new DnsResolver({ servers: [fake.server] });
    try {
      for (let index = 0; index < 5; index++) {
        fake.set(`fast${index}.pace.example`, { A: ['192.0.2.1'] });
        await patient.resolveNames([`fast${index}.pace.example`], new DnsQueryBudget());
      }
      fake.set('slow.pace.example', { A: ['192.0.2.2'], delayMs: 1_500 });
      const answers = await patient.resolveNames(['slow.pace.example'], new DnsQueryBudget());
      expect(answers.get('slow.pace.example')).toEqual({ ok: true, addresses: ['192.0.2.2'] });
    } finally {
      patient.close();
    }
  });

  it('follows a CNAME chain in the answer, and asks nothing more for a CNAME loop', async () => {
    fake.set('www.chain.example', { CNAME: 'edge.chain.example' });
    fake.set('edge.chain.example', { CNAME: 'origin.chain.example' });
    fake.set('origin.chain.example', { A: ['198.51.100.20'] });
    fake.set('a.loop.example', { CNAME: 'b.loop.example' });
    fake.set('b.loop.example', { CNAME: 'a.loop.example' });
    const answers = await resolver.resolveNames(['www.chain.example', 'a.loop.example'], new DnsQueryBudget());
    expect(answers.get('www.chain.example')).toEqual({ ok: true, addresses: ['198.51.100.20'] });
    expect(answers.get('a.loop.example')).toEqual({ ok: false, failure: 'noAddress' });
    expect(fake.queries).toHaveLength(4);
  });

  it('takes a truncated UDP answer again over TCP, hundreds of addresses included', async () => {
    const many = Array.from({ length: 300 }, (_, index) => `203.0.${113 + (index >> 8)}.${index & 255}`);
    fake.set('big.example', { A: many });
    fake.set('tc.example', { A: ['192.0.2.77'], behaviour: 'truncate' });
    const answers = await resolver.resolveNames(['big.example', 'tc.example'], new DnsQueryBudget());
    expect(answers.get('big.example')).toEqual({ ok: true, addresses: many });
    expect(answers.get('tc.example')).toEqual({ ok: true, addresses: ['192.0.2.77'] });
    expect(fake.queriesFor('tc.example').filter((query) => query.type === 'A').map((query) => query.transport)).toEqual(['udp', 'tcp']);
  });

  it('sends no query past the budget, each charged as the two it may put on the wire: the names left say so', async () => {
    fake.set('one.budget.example', { A: ['192.0.2.1'] });
    fake.set('two.budget.example', { A: ['192.0.2.2'] });
    // Room for three queries of two (UDP, then TCP if truncated) and not a fourth.
    const answers = await resolver.resolveNames(['one.budget.example', 'two.budget.example'], new DnsQueryBudget(7));
    expect(answers.get('one.budget.example')).toEqual({ ok: true, addresses: ['192.0.2.1'] });
    expect(answers.get('two.budget.example')).toEqual({ ok: true, addresses: ['192.0.2.2'] });
    expect(fake.queries).toHaveLength(3);
    const spent = await resolver.resolveNames(['three.budget.example'], new DnsQueryBudget(1));
    expect(spent.get('three.budget.example')).toEqual({ ok: false, failure: 'queryCap' });
    expect(fake.queries).toHaveLength(3);
  });

  it('refuses a name before any query when the member’s share is spent', async () => {
    const refusal = new Error('share spent');
    await expect(resolver.resolveNames(['refused.example'], new DnsQueryBudget(), { beforeRequest: () => Promise.reject(refusal) })).rejects.toBe(refusal);
    expect(fake.queries).toEqual([]);
  });

  it('finds PTR names, confirmed when they lead back, and leaves out what is missing or late', async () => {
    fake.setReverse('198.51.100.7', 'ec2-198-51-100-7.compute.example.');
    fake.set('ec2-198-51-100-7.compute.example', { A: ['198.51.100.7'] });
    fake.setReverse('2001:db8::7', 'Host.Spoofed.Example');
    fake.set('host.spoofed.example', { AAAA: ['2001:db8::8'] });
    fake.setReverse('198.51.100.9', 'late.example', { behaviour: 'never' });
    fake.setReverse('198.51.100.10', 'printer.local');
    const budget = new DnsQueryBudget();
    const names = await resolver.reverseNames(['198.51.100.7', '2001:db8::7', '198.51.100.8', '198.51.100.9', '198.51.100.10'], budget);
    expect(Object.fromEntries(names)).toEqual({
      '198.51.100.7': { name: 'ec2-198-51-100-7.compute.example', confirmed: true },
      '2001:db8::7': { name: 'host.spoofed.example', confirmed: false },
      '198.51.100.10': { name: 'printer.local', confirmed: false },
    });
    // Five PTR queries, two confirmations (each in its own family); the private name is never asked about.
    expect(fake.queries.map((query) => query.type).sort()).toEqual(['A', 'AAAA', 'PTR', 'PTR', 'PTR', 'PTR', 'PTR']);
    const again = await resolver.reverseNames(['198.51.100.7', '198.51.100.8'], new DnsQueryBudget());
    expect(again.get('198.51.100.7')).toEqual({ name: 'ec2-198-51-100-7.compute.example', confirmed: true });
    expect(fake.queries).toHaveLength(7);
  });

  describe('with several servers', () => {
    const started: FakeDns[] = [];
    const resolvers: DnsResolver[] = [];

    afterEach(async () => {
      for (const resolver of resolvers.splice(0)) resolver.close();
      await Promise.all(started.splice(0).map((server) => server.close()));
    });

    /** Another fake server for this test; a silent one answers nothing. */
    const another = async ({ silent = false } = {}) => {
      const server = await startFakeDns();
      server.silent = silent;
      started.push(server);
      return server;
    };
    const over = (servers: readonly string[], options: Omit<DnsResolverOptions, 'servers'> = {}) => {
      const resolver = new DnsResolver({ servers, timeoutMs: 500, ...options });
      resolvers.push(resolver);
      return resolver;
    };
    const names = (tag: string, count: number) => Array.from({ length: count }, (_, index) => `n${index}.${tag}.example`);

    it('cost what one server costs when both answer: ten names, truncated and asked again over TCP, 40 on the wire', async () => {
      const second = await another();
      for (const server of [fake, second]) {
        for (const name of [...names('one.pair', 10), ...names('two.pair', 10)]) server.set(name, { A: ['192.0.2.1'], AAAA: ['2001:db8::1'], behaviour: 'truncate' });
      }
      const alone = await over([fake.server]).resolveNames(names('one.pair', 10), new DnsQueryBudget());
      const aloneOnTheWire = fake.queries.length;
      const paired = await over([fake.server, second.server]).resolveNames(names('two.pair', 10), new DnsQueryBudget());
      expect([...alone.values(), ...paired.values()]).toEqual(Array(20).fill({ ok: true, addresses: ['192.0.2.1', '2001:db8::1'] }));
      // A and AAAA for each name, each over UDP and again over TCP: all 40, all to the first server.
      expect(aloneOnTheWire).toBe(MAX_DNS_QUERIES_PER_COMMAND);
      expect(fake.queries.length - aloneOnTheWire).toBe(aloneOnTheWire);
      expect(second.queries).toEqual([]);
    });

    it('hand a query to the next server when one keeps silent, charged again only then, and ask the silent one last for a minute', async () => {
      let clock = 0;
      const silent = await another({ silent: true });
      const resolver = over([silent.server, fake.server], { now: () => clock });
      for (const name of [...names('first.silent', 5), ...names('next.silent', 10), ...names('later.silent', 1)]) fake.set(name, { A: ['192.0.2.3'] });
      // Five names: ten queries charged two on the silent server and two again on the next, all 40.
      const first = await resolver.resolveNames(names('first.silent', 5), new DnsQueryBudget());
      expect([...first.values()]).toEqual(Array(5).fill({ ok: true, addresses: ['192.0.2.3'] }));
      expect([silent.queries.length, fake.queries.length]).toEqual([10, 10]);
      // The silent server is asked last now: ten names cost what they cost with one server.
      const next = await resolver.resolveNames(names('next.silent', 10), new DnsQueryBudget());
      expect([...next.values()]).toEqual(Array(10).fill({ ok: true, addresses: ['192.0.2.3'] }));
      expect([silent.queries.length, fake.queries.length]).toEqual([10, 30]);
      clock += 60_000;
      const later = await resolver.resolveNames(names('later.silent', 1), new DnsQueryBudget());
      expect(later.get('n0.later.silent.example')).toEqual({ ok: true, addresses: ['192.0.2.3'] });
      expect([silent.queries.length, fake.queries.length]).toEqual([12, 32]);
    });

    it('hand nothing over past the budget: the member reads that the server did not answer in time', async () => {
      const silent = await another({ silent: true });
      fake.set('capped.silent.example', { A: ['192.0.2.4'] });
      // Room for the A and AAAA queries on the silent server (two each), none for handing them over.
      const answers = await over([silent.server, fake.server]).resolveNames(['capped.silent.example'], new DnsQueryBudget(4));
      expect(answers.get('capped.silent.example')).toEqual({ ok: false, failure: 'timedOut' });
      expect(silent.queries).toHaveLength(2);
      expect(fake.queries).toEqual([]);
    });

    it('hand a query over at once when a server refuses the connection', async () => {
      const closed = createSocket('udp4');
      await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
      const { port } = closed.address();
      await new Promise<void>((resolve) => closed.close(resolve));
      fake.set('refused.example', { A: ['192.0.2.5'] });
      const started = performance.now();
      const answers = await over([`127.0.0.1:${port}`, fake.server], { timeoutMs: 5_000 }).resolveNames(['refused.example'], new DnsQueryBudget());
      expect(answers.get('refused.example')).toEqual({ ok: true, addresses: ['192.0.2.5'] });
      expect(performance.now() - started).toBeLessThan(2_500);
    });

    it('take a server-failure answer as final, as c-ares does: the next server is not asked', async () => {
      const failing = await another();
      failing.set('servfail.pair.example', { behaviour: 'servfail' });
      fake.set('servfail.pair.example', { A: ['192.0.2.6'] });
      const answers = await over([failing.server, fake.server]).resolveNames(['servfail.pair.example'], new DnsQueryBudget());
      expect(answers.get('servfail.pair.example')).toEqual({ ok: false, failure: 'serverFailed' });
      expect(fake.queries).toEqual([]);
    });

    it('ask no more than three servers a query, so that it ends within three deadlines', async () => {
      const silents = await Promise.all([1, 2, 3].map(() => another({ silent: true })));
      fake.set('fourth.example', { A: ['192.0.2.7'] });
      const answers = await over([...silents.map((server) => server.server), fake.server]).resolveNames(['fourth.example'], new DnsQueryBudget());
      expect(answers.get('fourth.example')).toEqual({ ok: false, failure: 'timedOut' });
      expect(silents.map((server) => server.queries.length)).toEqual([2, 2, 2]);
      expect(fake.queries).toEqual([]);
    });
  });
});
