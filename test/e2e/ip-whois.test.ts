import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeRdap, type FakeRdap } from '../fakes/rdap.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';

type Button = { custom_id: string; label: string };

describe('/ip whois and the registration buttons end to end', () => {
  let geo: FakeGeoJs;
  let rdap: FakeRdap;
  let bot: TestBot;

  beforeAll(async () => {
    geo = await startFakeGeoJs();
    rdap = await startFakeRdap();
    bot = await startTestBot({ env: { GEOJS_URL: geo.url, RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl } });
  });

  afterAll(async () => {
    await bot?.stop();
    await rdap?.close();
    await geo?.close();
  });

  beforeEach(() => {
    geo.reset();
    rdap.reset();
  });

  it('puts a registration button under each public address of a lookup, asking no registry until pressed', async () => {
    const shown = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8 10.0.0.1 81.2.69.142' } })).final();
    const buttons = shown.components!.flatMap((row) => (row as { components: Button[] }).components);
    expect(buttons.map((button) => button.label)).toEqual([en.ops.whois.button('8.8.8.8'), en.ops.whois.button('81.2.69.142')]);
    expect(rdap.iana.requests).toHaveLength(0);

    const pressed = await (await bot.discord.button({ customId: buttons[0]!.custom_id, message: shown })).final();
    expect(pressed.ephemeral).toBe(true);
    const [embed] = pressed.embeds;
    expect(embed!.title).toBe('8.8.8.8 · GOGL');
    expect(embed!.description).toContain('To: network-abuse@google.com · Subject: Abuse from 8.8.8.8 (GOGL, 8.8.8.0/24)');
    expect(embed!.fields!.find((field) => field.name === en.ops.whois.abuse)!.value).toContain('+1-650-253-0000');
    expect(JSON.stringify(pressed.embeds)).not.toMatch(/undefined|null|NaN/);
    expect(rdap.arin.asked('ip/8.8.8.8')).toHaveLength(1);
  });

  it('answers /ip whois for an AS number, a domain and an address without abuse contact, in the member’s language', async () => {
    const asn = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: 'AS13335' } })).final();
    expect(asn.embeds[0]!.title).toBe('AS13335 · CLOUDFLARENET');
    const domain = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: 'https://Example.com/login' }, locale: 'fr' })).final();
    expect(domain.embeds[0]!.fields!.map((field) => field.name)).toEqual(expect.arrayContaining([fr.ops.whois.registrar, fr.ops.whois.nameServers, fr.ops.whois.expires]));
    const quiet = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: '8.8.4.4' } })).final();
    expect(quiet.embeds[0]!.fields!.find((field) => field.name === en.ops.whois.abuse)!.value).toBe(en.ops.whois.noAbuse);
    expect(quiet.embeds[0]!.description).toBeUndefined();
  });

  it('refuses private addresses and local names before any registry, and says when none has a record', async () => {
    const local = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: '192.168.1.1' } })).final();
    expect(local).toMatchObject({ ephemeral: true, content: en.ops.whois.specialAddress });
    const name = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: 'nas.lan' } })).final();
    expect(name.content).toBe(en.ops.whois.notAQuery(en.ip.problems.privateName));
    expect(rdap.iana.requests).toHaveLength(0);
    const none = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: '8.0.0.1' } })).final();
    expect(none.content).toBe(en.ops.whois.notRegistered('8.0.0.1'));
  });

  it('says when a registry asked us to slow down, in a plain sentence', async () => {
    const limited = await (await bot.discord.chatInput({ name: 'ip', subcommand: 'whois', options: { query: '8.4.2.9' } })).final();
    expect(limited.content).toBe(en.errors.rateLimited('RDAP', en.errors.inDuration('30 seconds')));
  });
});
