import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { toYdke } from '../src/decks/ydke.js';
import { startFakeYgoprodeck } from './fakes/ygoprodeck.js';
import { writeCardSnapshot } from './helpers/card-snapshot.js';
import { startFakeDns } from './fakes/dns.js';
import { startFakeGeoJs } from './fakes/geojs.js';
import { startFakeWallhaven } from './fakes/wallhaven.js';
import { runEntryPoint } from './helpers/run-script.js';

describe('npm start without a token', () => {
  it('exits 1 naming the variable and .env.example', async () => {
    const result = await runEntryPoint('src/index.ts', [], { METRICS_PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DISCORD_TOKEN');
    expect(result.stderr).toContain('.env.example');
    expect(result.stderr).toContain('METRICS_PORT');
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  });
});

describe('npm run cli', () => {
  it('prints a valid Discord message payload for `status --json`', async () => {
    const result = await runEntryPoint('src/cli.ts', ['status', '--json']);
    expect(result.code).toBe(0);
    const payload = JSON.parse(result.stdout) as { embeds: { title: string; fields: { name: string }[] }[]; flags: number };
    expect(payload.embeds).toHaveLength(1);
    expect(payload.embeds[0]!.title).toBe('Almanac status');
    expect(payload.embeds[0]!.fields.map((field) => field.name)).toEqual(expect.arrayContaining(['Version', 'Uptime']));
    expect(payload.flags).toBe(64);
  });

  it('shows a .ydk deck and writes its picture next to the file, or to --out in the format it names', async () => {
    const ygoprodeck = await startFakeYgoprodeck();
    try {
      const dir = await mkdtemp(join(tmpdir(), 'almanac-cli-deck-'));
      await writeCardSnapshot(join(dir, 'data'), ygoprodeck.cards, ygoprodeck.version);
      const [first, second] = ygoprodeck.cards;
      await writeFile(join(dir, 'my deck.ydk'), `#main\n${first!.id}\n${first!.id}\n${second!.id}\n#extra\n!side\n`);
      const env = { DATA_DIR: join(dir, 'data'), YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl };
      const byFile = await runEntryPoint('src/cli.ts', ['deck', 'show', '--file', join(dir, 'my deck.ydk')], env);
      expect(byFile.code).toBe(0);
      expect(byFile.stdout).toContain(`2× ${first!.name}`);
      expect((await sharp(join(dir, 'my deck.jpg')).metadata()).format).toBe('jpeg');
      const url = toYdke({ main: [first!.id], extra: [], side: [] });
      const byUrl = await runEntryPoint('src/cli.ts', ['deck', 'show', '--url', url, '--out', join(dir, 'out.png')], env);
      expect(byUrl.code).toBe(0);
      expect((await sharp(join(dir, 'out.png')).metadata()).format).toBe('png');
    } finally {
      await ygoprodeck.close();
    }
  });

  it('shows a .ydk deck with YGOPRODeck unreachable: the deck with its names, and the picture with name tiles', async () => {
    // The fake only lends its cards to the database; YGOPRODeck stays on a closed port (OFFLINE_ENV).
    const ygoprodeck = await startFakeYgoprodeck();
    await ygoprodeck.close();
    const dir = await mkdtemp(join(tmpdir(), 'almanac-cli-offline-'));
    await writeCardSnapshot(join(dir, 'data'), ygoprodeck.cards, ygoprodeck.version);
    // More cards than a member's share downloads at once: the rest is left to the background.
    const cards = ygoprodeck.cards.slice(0, 20);
    await writeFile(join(dir, 'deck.ydk'), `#main\n${cards.map((card) => card.id).join('\n')}\n`);
    const result = await runEntryPoint('src/cli.ts', ['deck', 'show', '--file', join(dir, 'deck.ydk')], { DATA_DIR: join(dir, 'data') }, 60_000);
    expect(result.code).toBe(0);
    for (const card of cards.slice(0, 3)) expect(result.stdout).toContain(`1× ${card.name}`);
    expect(result.stderr).toContain(`picture written to ${join(dir, 'deck.jpg')}`);
    expect((await sharp(join(dir, 'deck.jpg')).metadata()).format).toBe('jpeg');
  });

  it('prints a readable rendering without --json', async () => {
    const result = await runEntryPoint('src/cli.ts', ['status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('== Almanac status ==');
    expect(result.stdout).toMatch(/Version: \d+\.\d+\.\d+/);
  });

  it('looks up a host name through DNS_SERVERS, and shows the operator at the terminal the egress address in `status`', async () => {
    const [dns, geo] = await Promise.all([startFakeDns(), startFakeGeoJs()]);
    try {
      dns.set('github.com', { A: ['81.2.69.142'] });
      geo.callerIp = '202.12.27.33';
      const env = { DNS_SERVERS: dns.server, GEOJS_URL: geo.url };
      const [lookup, status] = await Promise.all([
        runEntryPoint('src/cli.ts', ['ip', 'lookup', '--addresses', 'github.com'], env),
        runEntryPoint('src/cli.ts', ['status'], env),
      ]);
      expect(lookup.code).toBe(0);
      expect(lookup.stdout).toContain('github.com → 81.2.69.142');
      expect(lookup.stdout).toContain('London, England, United Kingdom');
      expect(dns.queriesFor('github.com').map((query) => query.type).sort()).toEqual(['A', 'AAAA']);
      expect(status.stdout).toMatch(/Seen by upstreams from: `202\.12\.27\.33` · AS7500 · M-ROOT-DNS WIDE Project/);
    } finally {
      await Promise.all([dns.close(), geo.close()]);
    }
  });

  it('runs the wallpaper listings’ options: a toplist in a colour typed by name, and a user’s collections', async () => {
    const wallhaven = await startFakeWallhaven();
    try {
      const env = { WALLHAVEN_URL: wallhaven.url };
      const [toplist, collections] = await Promise.all([
        runEntryPoint('src/cli.ts', ['wallpaper', 'search', '--toplist', '1M', '--color', 'red', '--json'], env),
        runEntryPoint('src/cli.ts', ['wallpaper', 'collections', '--user', 'alpha'], env),
      ]);
      expect(toplist.code).toBe(0);
      const payload = JSON.parse(toplist.stdout) as { embeds: { description: string }[] };
      expect(payload.embeds[0]!.description).toBe('All wallpapers · colour Red · sorted by toplist of the last month');
      expect(wallhaven.requestsTo('/api/v1/search')[0]!.url).toBe('/api/v1/search?categories=111&purity=100&sorting=toplist&topRange=1M&colors=cc0000&page=1');
      expect(collections.code).toBe(0);
      expect(collections.stdout).toContain('Public collections of alpha');
      expect(collections.stdout).toContain('Favorites');
    } finally {
      await wallhaven.close();
    }
  });

  // Every usage and refusal is read in process (test/cli/invocation.test.ts); these two prove the
  // entry point prints them where they belong, before configuring anything.
  it('refuses an unknown command in one line on stderr pointing at --help, exit 2', async () => {
    const result = await runEntryPoint('src/cli.ts', ['nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('Unknown command "nope". Run "npm run cli -- --help" for usage.\n');
    expect(result.stdout).toBe('');
  });

  it('prints usage for --help on stdout and exits 0', async () => {
    const result = await runEntryPoint('src/cli.ts', ['card', 'show', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: npm run cli -- <command>');
    expect(result.stdout).toContain('  card show --name <name>');
    expect(result.stderr).toBe('');
  });
});
