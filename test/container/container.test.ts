import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toYdke } from '../../src/decks/ydke.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { nodeSigningKeys, signatureHeadersFor } from '../fakes/discord-http.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { loadCardDump, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { freePort } from '../helpers/free-port.js';
import { answerOf } from '../helpers/reliability.js';
import { samplePeakResident } from '../helpers/process-memory.js';
import { PROJECT_ROOT } from '../helpers/run-script.js';

/**
 * The image as an operator runs it: built from the Dockerfile with podman (runc, as root; see
 * base-image.sh for the base where no registry is reachable) and started read-only, as the
 * unprivileged user, with /data a volume and /tmp a tmpfs, against the suite's fakes on the host's
 * loopback (`--network host`).
 */

const run = promisify(execFile);
const IMAGE = process.env.ALMANAC_IMAGE ?? 'localhost/almanac:container-test';
/** This machine's podman: crun refuses its cgroups, runc works with these limits. */
const PODMAN = ['--runtime', 'runc'];
const LIMITS = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=1000:1000'];

async function podman(args: string[], timeoutMs = 60_000): Promise<{ stdout: string; stderr: string }> {
  return run('podman', [...PODMAN, ...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
}

/** `podman run` of the image as the README says: read-only root, /data a volume, /tmp a tmpfs. */
function runArgs(name: string, volume: string, env: Record<string, string>, command: string[] = [], flags: string[] = []): string[] {
  const environment = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  return ['run', ...flags, '--name', name, '--network', 'host', '--read-only', '--tmpfs', '/tmp', '-v', `${volume}:/data`, ...LIMITS, ...environment, IMAGE, ...command];
}

async function exitCode(name: string): Promise<number> {
  const { stdout } = await podman(['inspect', name, '--format', '{{.State.ExitCode}}']);
  return Number(stdout.trim());
}

describe('the container image', () => {
  let discord: FakeDiscord;
  let ygoprodeck: FakeYgoprodeck;
  let geo: FakeGeoJs;
  let metricsPort: number;
  const volume = `almanac-test-${randomUUID().slice(0, 8)}`;
  const containers: string[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    const base = await run('bash', [join(PROJECT_ROOT, 'test/container/base-image.sh')], { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    expect(base.stdout.trim()).toBe('node:20-bookworm-slim');
    if (process.env.ALMANAC_IMAGE === undefined) {
      await podman(['build', '--format', 'docker', '--network', 'host', ...LIMITS, '-t', IMAGE, PROJECT_ROOT], 900_000);
    }
    [discord, ygoprodeck, geo] = await Promise.all([startFakeDiscord({ token: CANARY_TOKEN }), startFakeYgoprodeck({ cards: loadCardDump() }), startFakeGeoJs()]);
    metricsPort = await freePort();
    env = {
      DISCORD_TOKEN: CANARY_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      YGOPRODECK_URL: ygoprodeck.url,
      YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl,
      GEOJS_URL: geo.url,
      WALLHAVEN_URL: 'http://127.0.0.1:9',
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
    };
    await podman(['volume', 'create', volume]);
  });

  afterAll(async () => {
    for (const name of containers) await podman(['rm', '-f', name]).catch(() => undefined);
    await podman(['volume', 'rm', '-f', volume]).catch(() => undefined);
    await Promise.all([discord?.close(), ygoprodeck?.close(), geo?.close()]);
  });

  /** Starts the bot in a new container (with `flags` for `podman run`) and waits until it is ready on /readyz. */
  async function startBot(flags: string[] = []): Promise<string> {
    const name = `almanac-test-${randomUUID().slice(0, 8)}`;
    containers.push(name);
    await podman(runArgs(name, volume, env, [], ['-d', ...flags]));
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${metricsPort}/readyz`).then((response) => response.status, () => 0)), { timeout: 90_000, interval: 500 })
      .toBe(200);
    // Then until the card database and the four languages are in use (downloaded on a first start,
    // from /data after): what a /card command answers from.
    await expect
      .poll(async () => ((await podman(['logs', name])).stdout.match(/"msg":"card texts loaded"/g) ?? []).length, { timeout: 180_000, interval: 1_000 })
      .toBe(4);
    return name;
  }

  it('runs as an unprivileged user on a read-only root, answers /card show with its art and /ip lookup, serves /healthz and /metrics, and stops on SIGTERM with 0', async () => {
    const name = await startBot();
    expect((await podman(['exec', name, 'id', '-u'])).stdout.trim()).toBe('1000');
    await expect(podman(['exec', name, 'touch', '/app/written'])).rejects.toThrow(/Read-only file system/);
    await podman(['exec', name, 'touch', '/data/written', '/tmp/written']);
    // SQLite (DATABASE_URL unset) in the volume, through the native module built in the build stage.
    expect((await podman(['logs', name])).stdout).toContain('"msg":"database /data/almanac.db: applied 0001_first_schema, 0002_banlist_history, 0003_card_set_history, 0004_poll_turns"');

    const card = await answerOf(await discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'Dark Magician' } }));
    expect(card.embeds[0]?.title).toBe('Dark Magician');
    expect(card.files).toHaveLength(1);
    // A deck picture: the fake's stub art does not decode, so every tile is a name tile, drawn with the image's font.
    const deck = await (await discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: toYdke({ main: [46986414, 55144522], extra: [], side: [] }) } })).final(30_000);
    expect(deck.embeds[0]?.description).toContain('Dark Magician');
    const picture = deck.files.find((file) => file.name === 'deck.jpg');
    expect(picture).toBeDefined();
    expect(await sharp(picture!.data).metadata()).toMatchObject({ format: 'jpeg' });
    expect((await podman(['logs', name])).stderr).not.toMatch(/Fontconfig (error|warning)|UnsupportedCacheOverwriteWarning/i);
    const place = await answerOf(await discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: '8.8.8.8' } }));
    expect(place.embeds[0]?.title).toContain('8.8.8.8');

    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toMatch(/almanac_interactions_total\{command="card show",kind="chat",outcome="ok"\} 1/);
    expect(ygoprodeck.fullDownloads()).toHaveLength(1);

    // Within compose's stop_grace_period (15 s): SIGTERM, the drain (8 s at most), exit 0.
    await podman(['stop', '--time', '15', name]);
    expect(await exitCode(name)).toBe(0);
    expect((await podman(['logs', name])).stdout).toMatch(/"msg":"shutting down"[^]*"msg":"stopped"/);
  });

  it('restarted on the same /data, loads the card database from there without downloading it, and finds its schema up to date', async () => {
    const name = await startBot();
    expect((await podman(['logs', name])).stdout).toContain('"msg":"database /data/almanac.db: schema up to date"');
    const card = await answerOf(await discord.chatInput({ name: 'card', subcommand: 'show', options: { name: 'Blue-Eyes White Dragon' } }));
    expect(card.embeds[0]?.title).toBe('Blue-Eyes White Dragon');
    expect(ygoprodeck.fullDownloads()).toHaveLength(1);
    await podman(['stop', '--time', '15', name]);
    expect(await exitCode(name)).toBe(0);
  });

  it('holds 20 decks of 200 name tiles at once and a burst of cached commands inside compose’s 512 MB, every interaction acknowledged', async () => {
    // As docker-compose.yml limits each bot; no swap, so the limit is the memory there is.
    const name = await startBot(['--memory', '512m', '--memory-swap', '512m']);
    const pid = Number((await podman(['inspect', name, '--format', '{{.State.Pid}}'])).stdout.trim());
    await answerOf(await discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' } }));
    const peak = samplePeakResident(pid);
    const member = (index: number) => ({ id: String(1_360_000_000_000_000_000n + BigInt(index)), username: `member${index}` });
    // Passwords the database does not know: 200 name tiles a deck, no upstream request.
    const deckOf = (seed: number) => {
      const passwords = Array.from({ length: 200 }, (_, index) => 990_000_000 + seed * 1_000 + index);
      return toYdke({ main: passwords.slice(0, 60), extra: passwords.slice(60, 75), side: passwords.slice(75) });
    };
    const [decks, cached] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, index) => discord.chatInput({ name: 'deck', subcommand: 'show', options: { url: deckOf(index) }, user: member(index) }))),
      Promise.all(Array.from({ length: 50 }, (_, index) => discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: '8.8.8.8' }, user: member(100 + index) }))),
    ]);
    await Promise.all([...decks, ...cached].map((exchange) => exchange.callback(30_000)));
    for (const exchange of cached) expect((await answerOf(exchange)).content).toContain('8.8.8.8');
    for (const exchange of decks) {
      const answer = await exchange.waitForEdit((edit) => edit.files.some((file) => file.name === 'deck.jpg'), 120_000);
      expect(answer.message.content).toMatch(/^ydke:\/\//);
    }
    const { ownBytes, withChildrenBytes } = peak.stop();
    const state = (await podman(['inspect', name, '--format', '{{.State.OOMKilled}} {{.State.Running}}'])).stdout.trim();
    expect(state).toBe('false true');
    // The figure the issue asks for, in the test's output.
    console.log(`container under a 512 MB limit: peak RSS ${(withChildrenBytes / 1e6).toFixed(0)} MB (bot ${(ownBytes / 1e6).toFixed(0)} MB, with its deck composer)`);
    expect(withChildrenBytes).toBeLessThan(450e6);
    await podman(['stop', '--time', '15', name]);
    expect(await exitCode(name)).toBe(0);
  });

  it('runs the HTTP endpoint (node dist/src/start-http.js), which answers a signed PING', async () => {
    const keys = nodeSigningKeys();
    const port = await freePort();
    const name = `almanac-test-${randomUUID().slice(0, 8)}`;
    containers.push(name);
    const httpEnv = { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_API_URL: discord.apiUrl, INTERACTIONS_PORT: String(port), METRICS_PORT: '', YGOPRODECK_URL: ygoprodeck.url };
    await podman(runArgs(name, volume, httpEnv, ['node', 'dist/src/start-http.js'], ['-d']));
    const ping = JSON.stringify({ id: '1', application_id: discord.applicationId, token: 't', type: 1, version: 1 });
    await expect
      .poll(
        async () =>
          fetch(`http://127.0.0.1:${port}/interactions`, { method: 'POST', headers: signatureHeadersFor(keys, ping), body: ping }).then(
            (response) => response.json(),
            () => null,
          ),
        { timeout: 60_000, interval: 500 },
      )
      .toEqual({ type: 1 });
    await podman(['stop', '--time', '15', name]);
    expect(await exitCode(name)).toBe(0);
  });

  it('runs register, cards:import and cli from the image as the README says', async () => {
    const once = async (command: string[], extra: string[] = [], runEnv: Record<string, string> = env) => {
      const name = `almanac-test-${randomUUID().slice(0, 8)}`;
      containers.push(name);
      return podman(runArgs(name, volume, runEnv, command, ['--rm', ...extra]), 120_000);
    };
    const registered = await once(['node', 'dist/src/register.js']);
    expect(registered.stdout).toMatch(/^Registered \d+ commands globally/m);
    const puts = discord.calls.filter((call) => call.method === 'PUT');
    expect((puts.at(-1)?.json as { name: string }[]).map((command) => command.name)).toContain('card');

    const importDir = await mkdtemp(join(tmpdir(), 'almanac-import-'));
    try {
      const cards = loadCardDump().slice(0, 50);
      await writeFile(join(importDir, 'cardinfo.json'), JSON.stringify({ data: cards }));
      // The container's user (uid 1000) reads it through the mount.
      await chmod(importDir, 0o755);
      await chmod(join(importDir, 'cardinfo.json'), 0o644);
      const imported = await once(['node', 'dist/src/cards-import.js', '/import/cardinfo.json'], ['-v', `${importDir}:/import:ro`]);
      expect(imported.stdout).toMatch(/^Imported 50 cards \(version import-[0-9a-f]{12}\) into \/data\.$/m);
    } finally {
      await rm(importDir, { recursive: true, force: true });
    }
    const shown = await once(['node', 'dist/src/cli.js', 'ip', 'lookup', '--addresses', '192.168.1.10']);
    expect(shown.stdout).toContain('192.168.1.10');
  });
});
