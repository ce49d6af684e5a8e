import { REST, Routes } from 'discord.js';
import dgram from 'node:dgram';
import dns, { lookup } from 'node:dns';
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DnsDig } from '../../src/services/dns/dig.js';
import { startFakeDns } from '../fakes/dns.js';
import { startTestBot } from '../helpers/bot.js';
import { answerOf, expectPlainSentence } from '../helpers/reliability.js';
import { assertNoBlockedAttempts, FAR_ADDRESS, FENCE_MARKER, isLoopback, takeBlockedAttempts } from './network-fence.js';

/**
 * The fence that keeps the whole suite on loopback (vitest-setup.ts) refuses every way out, records
 * it, and lets loopback through. Each test takes the attempts it caused, so the fence's own
 * afterEach check finds none left.
 */

function failureOf(emitter: { once(event: 'error', listener: (error: Error) => void): unknown }): Promise<Error> {
  return new Promise((resolve) => emitter.once('error', resolve));
}

describe('the network fence', () => {
  let local: Server;
  let localPort: number;

  beforeAll(async () => {
    local = createServer((_request, response) => response.end('local'));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    localPort = (local.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => local.close(resolve));
  });

  it('refuses raw TCP and TLS sockets to other hosts, before any DNS query', async () => {
    const error = await failureOf(net.connect(443, FAR_ADDRESS));
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(error.message).toContain(FENCE_MARKER);
    await failureOf(tls.connect({ host: 'images.ygoprodeck.com', port: 443, servername: 'images.ygoprodeck.com' }));
    await failureOf(net.connect({ host: '2001:db8::1', port: 80 }));
    expect(takeBlockedAttempts()).toEqual([
      { target: `${FAR_ADDRESS}:443`, via: 'connect' },
      { target: 'images.ygoprodeck.com:443', via: 'connect' },
      { target: '2001:db8::1:80', via: 'connect' },
    ]);
  });

  it("refuses UDP datagrams off loopback (/ip dig's wire queries, DNS over HTTPS) and lets loopback ones through", async () => {
    const socket = dgram.createSocket('udp4');
    const refused = await new Promise<Error | null>((resolve) => socket.send(Buffer.from('x'), 53, FAR_ADDRESS, resolve));
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    const sent = await new Promise<Error | null>((resolve) => socket.send(Buffer.from('x'), 9, '127.0.0.1', resolve));
    expect(sent).toBeNull();
    socket.close();
    const dig = new DnsDig({ servers: [`${FAR_ADDRESS}:53`], doh: [{ name: 'far', url: 'https://dns.google/dns-query' }], timeoutMs: 200 });
    const question = { name: 'example.com', display: 'example.com', type: 'A' as const };
    expect(await dig.ask(question, 'system')).toEqual({ ok: false, failure: 'serverFailed' });
    expect(await dig.ask(question, 'far')).toMatchObject({ ok: false });
    expect(takeBlockedAttempts().map((attempt) => attempt.target)).toEqual([`${FAR_ADDRESS}:53`, `${FAR_ADDRESS}:53`, 'dns.google:443']);
  });

  it("refuses undici, Node's fetch, discord.js's REST and WebSockets", async () => {
    await expect(request('https://db.ygoprodeck.com/api/v7/checkDBVer.php')).rejects.toThrow();
    await expect(fetch('https://get.geojs.io/v1/ip/geo.json')).rejects.toThrow();
    const rest = new REST({ retries: 0, timeout: 5_000 }).setToken('fence-test-token');
    await expect(rest.get(Routes.gatewayBot())).rejects.toThrow();
    await failureOf(new WebSocket('wss://gateway.discord.gg/?v=10&encoding=json'));
    expect(takeBlockedAttempts().map((attempt) => attempt.target)).toEqual([
      'db.ygoprodeck.com:443',
      'get.geojs.io:443',
      'discord.com:443',
      'gateway.discord.gg:443',
    ]);
  });

  it('refuses DNS queries for other names, through every import style', async () => {
    const viaCallback = await new Promise<NodeJS.ErrnoException | null>((resolve) => dns.lookup('wallhaven.cc', (error) => resolve(error)));
    expect(viaCallback).toMatchObject({ code: 'ENOTFOUND' });
    await new Promise<void>((resolve) => lookup('w.wallhaven.cc', { all: true }, () => resolve()));
    await expect(dns.promises.resolve4('images.ygoprodeck.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(takeBlockedAttempts()).toEqual([
      { target: 'wallhaven.cc', via: 'dns.lookup' },
      { target: 'w.wallhaven.cc', via: 'dns.lookup' },
      { target: 'images.ygoprodeck.com', via: 'dns.promises.resolve4' },
    ]);
  });

  it('refuses a Resolver unless every server it would ask is on loopback, and lets a loopback one through', async () => {
    const fake = await startFakeDns();
    try {
      fake.set('fenced.example', { A: ['192.0.2.10'] });
      const far = new dns.promises.Resolver();
      far.setServers([fake.server, '192.0.2.53']);
      await expect(far.resolve4('fenced.example')).rejects.toThrow(FENCE_MARKER);
      const farCallback = new dns.Resolver();
      farCallback.setServers(['[2001:db8::53]:53']);
      await new Promise<void>((resolve) => farCallback.reverse('192.0.2.10', () => resolve()));
      expect(fake.queries).toEqual([]);
      expect(takeBlockedAttempts()).toEqual([
        { target: 'fenced.example', via: 'Resolver.resolve4' },
        { target: '192.0.2.10', via: 'Resolver.reverse' },
      ]);
      const near = new dns.promises.Resolver();
      near.setServers([fake.server, '[::1]:9']);
      expect(await near.resolve4('fenced.example')).toEqual(['192.0.2.10']);
      expect(takeBlockedAttempts()).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('lets loopback through: 127.0.0.0/8, localhost, ::1 and mapped forms', async () => {
    const answer = await request(`http://127.0.0.1:${localPort}/`);
    expect(await answer.body.text()).toBe('local');
    expect(await (await fetch(`http://localhost:${localPort}/`)).text()).toBe('local');
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', 'example.com', 'localhost.example.com']) expect(isLoopback(host), host).toBe(false);
    expect(takeBlockedAttempts()).toEqual([]);
  });

  it('catches what the bot swallowed: an upstream pointed off loopback is answered "unavailable", and still recorded', async () => {
    const bot = await startTestBot({ env: { GEOJS_URL: `http://${FAR_ADDRESS}` } });
    try {
      const answer = await answerOf(await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8' } }));
      expectPlainSentence(answer, /^GeoJS is unavailable/);
    } finally {
      await bot.stop();
    }
    expect(takeBlockedAttempts().map((attempt) => attempt.target)).toContain(`${FAR_ADDRESS}:80`);
  });

  it('fails the test that made an attempt, naming what it tried to reach', async () => {
    await failureOf(net.connect(443, FAR_ADDRESS));
    expect(() => assertNoBlockedAttempts()).toThrow(`${FENCE_MARKER} ${FAR_ADDRESS}:443 (connect): tests reach only 127.0.0.1`);
    expect(() => assertNoBlockedAttempts()).not.toThrow();
  });
});
