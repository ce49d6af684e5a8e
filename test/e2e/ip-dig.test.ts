import { InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/de.js';
import { en } from '../../src/i18n/en.js';
import { startFakeDns, type FakeDns } from '../fakes/dns.js';
import { startFakeDoh, type FakeDoh } from '../fakes/doh.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

describe('/ip dig end to end', () => {
  let zone: FakeDns;
  let doh: FakeDoh;
  let bot: TestBot;

  beforeAll(async () => {
    zone = await startFakeDns();
    doh = await startFakeDoh(zone);
    bot = await startTestBot({ env: { DNS_SERVERS: zone.server, DOH_RESOLVERS: `lab=${doh.endpoint}` } });
  });

  afterAll(async () => {
    await bot?.stop();
    await doh?.close();
    await zone?.close();
  });

  beforeEach(() => {
    zone.reset();
    doh.reset();
    zone.set('example.com', { A: ['93.184.216.34', '10.1.2.3'], ttl: 120, authentic: true, records: [{ type: 'MX', name: '', ttl: 300, data: { preference: 10, exchange: 'mx.example.com' } }] });
  });

  it('answers with records, TTLs and flags, hides private addresses, and refreshes in place', async () => {
    const shown = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'dig', options: { name: 'example.com' } })).final();
    expect(shown.ephemeral).toBe(true);
    const [embed] = shown.embeds;
    expect(embed!.title).toBe('A example.com');
    expect(embed!.description).toMatch(/example\.com\s+120\s+A\s+93\.184\.216\.34/);
    expect(embed!.description).not.toContain('10.1.2.3');
    expect(embed!.description).toContain(en.ops.dig.hiddenPrivate(1));
    expect(embed!.fields!.map((field) => field.value)).toEqual(expect.arrayContaining(['`NOERROR`', en.ops.dig.authentic]));
    const refresh = (shown.components![0] as { components: { custom_id: string; label: string }[] }).components[0]!;
    expect(refresh.label).toBe(en.ops.dig.refresh);

    zone.set('example.com', { A: ['93.184.216.35'], ttl: 60 });
    const refreshed = await (await bot.discord.button({ customId: refresh.custom_id, message: shown })).final();
    expect(refreshed.embeds[0]!.description).toMatch(/example\.com\s+60\s+A\s+93\.184\.216\.35/);
    expect(refreshed.embeds[0]!.fields!.map((field) => field.value)).toContain(en.ops.dig.notAuthentic);
    expect(zone.queriesFor('example.com').map((query) => query.transport)).toEqual(['udp', 'udp']);
  });

  it('asks a DNS-over-HTTPS resolver chosen by name, offered by autocomplete, in the member’s language', async () => {
    const exchange = await bot.discord.autocomplete({ name: 'ip', subcommand: 'dig', options: { name: 'example.com', resolver: '' }, focused: 'resolver' });
    const callback = await exchange.callback();
    expect(callback.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    expect(callback.data?.choices?.map((choice) => choice.value)).toEqual(['system', 'lab']);
    const answer = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'dig', options: { name: 'example.com', type: 'MX', resolver: 'lab' }, locale: 'de' })).final();
    expect(answer.embeds[0]!.description).toMatch(/example\.com\s+300\s+MX\s+10 mx\.example\.com/);
    expect(answer.embeds[0]!.fields!.find((field) => field.name === de.ops.dig.resolver)!.value).toContain(`lab, ${de.ops.dig.transports.https}`);
    expect(doh.requests).toHaveLength(1);
    expect(zone.queries.map((query) => query.transport)).toEqual(['https']);
  });

  it('refuses local names, private addresses, unknown types and resolvers before any query', async () => {
    const ask = async (options: Record<string, string>) => (await (await bot.discord.chatInput({ name: 'ip', subcommand: 'dig', options: { name: 'example.com', ...options } })).final()).content;
    expect(await ask({ name: 'printer.local' })).toBe(en.ops.dig.notAName(en.ip.problems.privateName));
    expect(await ask({ name: '192.168.1.1' })).toBe(en.ops.dig.specialAddress);
    expect(await ask({ type: 'AXFR' })).toBe(en.ops.dig.unknownType('A, AAAA, CNAME, MX, TXT, NS, SOA, CAA, SRV, PTR, DS, DNSKEY'));
    expect(await ask({ resolver: 'evil' })).toBe(en.ops.dig.unknownResolver('system, lab'));
    expect(zone.queries).toHaveLength(0);
    expect(doh.requests).toHaveLength(0);
  });

  it('says when the server does not answer, in a plain sentence', async () => {
    zone.set('slow.example', { behaviour: 'never' });
    const answer = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'dig', options: { name: 'slow.example' } })).final();
    expect(answer.content).toBe(en.ops.dig.noAnswer(en.ip.failures.timedOut));
  });
});
