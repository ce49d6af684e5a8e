import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUIRED_NODE } from '../../src/runtime/node-version.js';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { startFakeYgoprodeck, loadCardDump, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { entryPointCommandLine, logMessages as messages, NO_STACK, OFFLINE_ENV, PROJECT_ROOT, runEntryPoint, startEntryPoint, type RunningEntryPoint } from '../helpers/run-script.js';

/**
 * What a new operator sees when a first start does not go perfectly: each case spawns the real entry
 * point (as `npm start`, `npm run register`, `npm run cli` and `npm run cards:import` do) and reads
 * the one line it prints and its exit code.
 */

const DUMP = join(PROJECT_ROOT, 'test/fixtures/cardinfo-2025-04-25.json.br');
const DARK_MAGICIAN = 46986414;
const WRONG_TOKEN = 'wrong-token.MTAxMDEwMTAxMDEw.notthesecretpart9876';

/** A TCP server that accepts connections and never answers: a Discord that hangs. */
async function silentServer(): Promise<Server> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** A port on 127.0.0.1 that was free a moment ago and is closed now: connections are refused. */
async function closedPort(): Promise<number> {
  const server = await silentServer();
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}


describe('first start: the real entry points say what is wrong in one line', () => {
  let discord: FakeDiscord | undefined;
  let ygoprodeck: FakeYgoprodeck | undefined;
  let servers: Server[] = [];
  let dataDir: string | undefined;
  let running: RunningEntryPoint | undefined;

  afterEach(async () => {
    running?.child.kill('SIGKILL');
    await discord?.close();
    await ygoprodeck?.close();
    for (const server of servers) server.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    discord = ygoprodeck = running = dataDir = undefined;
    servers = [];
  });

  async function freshDataDir(): Promise<string> {
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-first-start-'));
    return dataDir;
  }

  it('refuses a too old Node.js in one line naming the version found and the one required, before reading the program', async () => {
    // A preload makes the real entry point see an old version, as it would on Node 20.18, and
    // makes the program unreadable on it (a dependency's newer syntax): only the check may run.
    const fakeOldNode = `--import=${join(PROJECT_ROOT, 'test/fixtures/old-node-preload.mjs')}`;
    for (const entry of ['src/index.ts', 'src/cli.ts', 'src/register.ts', 'src/cards-import.ts']) {
      const result = await runEntryPoint(entry, ['--help'], { NODE_OPTIONS: fakeOldNode, DISCORD_TOKEN: CANARY_TOKEN });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim()).toBe(
        `Almanac needs Node.js ${REQUIRED_NODE}; this is Node.js v20.18.1. Install a newer Node.js 20 or 22 LTS (https://nodejs.org).`,
      );
    }
    const manifest = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(REQUIRED_NODE);
  });

  it('a wrong token: one fatal line naming DISCORD_TOKEN, exit 1, no stack, no token', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const result = await runEntryPoint('src/index.ts', [], { DISCORD_TOKEN: WRONG_TOKEN, DISCORD_API_URL: discord.apiUrl, DATA_DIR: await freshDataDir() });
    expect(result.code).toBe(1);
    expect(messages(result.stdout, 60)).toEqual([
      `Discord refused the token (401 Unauthorized) at ${discord.apiUrl}: set DISCORD_TOKEN to the token from the Developer Portal (your app → Bot → Reset Token).`,
    ]);
    expect(result.stdout + result.stderr).not.toMatch(NO_STACK);
    expect(result.stdout + result.stderr).not.toContain(WRONG_TOKEN);
  });

  it('an unreachable Discord: one fatal line with the URL and the reason, exit 1', async () => {
    const apiUrl = `http://127.0.0.1:${await closedPort()}/api`;
    const result = await runEntryPoint('src/index.ts', [], { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: apiUrl, DATA_DIR: await freshDataDir() });
    expect(result.code).toBe(1);
    expect(messages(result.stdout, 60)).toEqual([
      `Could not reach Discord at ${apiUrl} (ECONNREFUSED): check the network, a proxy, or DISCORD_API_URL.`,
    ]);
    expect(result.stdout + result.stderr).not.toMatch(NO_STACK);
  });

  it('a busy METRICS_PORT: one fatal line with the port and what to change, exit 1', async () => {
    const busy = await silentServer();
    servers.push(busy);
    const port = portOf(busy);
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const result = await runEntryPoint('src/index.ts', [], {
      DISCORD_TOKEN: CANARY_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      METRICS_PORT: String(port),
      DATA_DIR: await freshDataDir(),
    });
    expect(result.code).toBe(1);
    expect(messages(result.stdout, 60)).toEqual([
      `METRICS_PORT ${port} on 127.0.0.1 is already in use by another process: stop it, or set METRICS_PORT to a free port (empty turns the ops server off).`,
    ]);
    expect(result.stdout + result.stderr).not.toMatch(NO_STACK);
  });

  it('logs each start-up step: card database download with progress, ops server, login URL, ready', { timeout: 60_000 }, async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    ygoprodeck = await startFakeYgoprodeck({ cards: loadCardDump() });
    running = startEntryPoint('src/index.ts', [], {
      DISCORD_TOKEN: CANARY_TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      YGOPRODECK_URL: ygoprodeck.url,
      METRICS_PORT: '0',
      DATA_DIR: await freshDataDir(),
    });
    await expect.poll(() => messages(running!.stdout()).some((msg) => msg.startsWith('card database: version')), { timeout: 45_000 }).toBe(true);
    const lines = messages(running.stdout(), 30);
    const steps = [
      /^card database: loading the snapshot from /,
      /^ops server listening on http:\/\/127\.0\.0\.1:\d+ \(\/metrics, \/healthz, \/readyz\)$/,
      new RegExp(`^logging in to Discord at ${discord.apiUrl.replace(/[.]/g, '\\.')}$`),
      /^ready$/,
    ];
    const positions = steps.map((step) => lines.findIndex((line) => step.test(line)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(lines).toContain('card database: no snapshot yet, downloading it from YGOPRODeck (about 20 MB)');
    expect(lines.filter((line) => /^card database: \d+\.\d MiB downloaded( \(\d+ %\))? in \d+\.\d s$/.test(line)).length).toBeGreaterThanOrEqual(3);
    expect(lines.some((line) => /^card database: version \S+ downloaded and in use \(13703 cards\)$/.test(line))).toBe(true);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('SIGTERM while logging in to a Discord that does not answer: exits 0', async () => {
    const hanging = await silentServer();
    servers.push(hanging);
    running = startEntryPoint('src/index.ts', [], {
      DISCORD_TOKEN: CANARY_TOKEN,
      DISCORD_API_URL: `http://127.0.0.1:${portOf(hanging)}/api`,
      DATA_DIR: await freshDataDir(),
    });
    await expect.poll(() => messages(running!.stdout()).some((msg) => msg.startsWith('logging in to Discord')), { timeout: 15_000 }).toBe(true);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(messages(running.stdout())).toContain('stopped');
    expect(messages(running.stdout(), 60)).toEqual([]);
  });

  it('npm run register: a wrong token and an unreachable Discord are one line each, exit 1', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const refused = await runEntryPoint('src/register.ts', [], { DISCORD_TOKEN: WRONG_TOKEN, DISCORD_API_URL: discord.apiUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `Registration failed. Discord refused the token (401 Unauthorized) at ${discord.apiUrl}: set DISCORD_TOKEN to the token from the Developer Portal (your app → Bot → Reset Token).`,
    );
    const apiUrl = `http://127.0.0.1:${await closedPort()}/api`;
    const unreachable = await runEntryPoint('src/register.ts', [], { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: apiUrl });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toBe(`Registration failed. Could not reach Discord at ${apiUrl} (ECONNREFUSED): check the network, a proxy, or DISCORD_API_URL.`);
    expect(refused.stderr + unreachable.stderr).not.toContain(WRONG_TOKEN);
  });
});

describe('offline: what is local is answered without any upstream', () => {
  let dataDir: string | undefined;

  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  // A .json.br as the real dump is saved, cut to its first cards: the real dump's 13,703 cards are
  // normalised in process (test/cards/card.test.ts) and downloaded by the first start above.
  it('npm run cards:import of a dump saved as .json.br, then `card show --name "Dark Magician"` with every upstream unreachable', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-import-'));
    const all = JSON.parse(brotliDecompressSync(await readFile(DUMP)).toString('utf8')) as { id: number }[];
    const cards = [...all.slice(0, 300), all.find((card) => card.id === DARK_MAGICIAN)!];
    const dump = join(dataDir, 'cardinfo.json.br');
    await writeFile(dump, brotliCompressSync(JSON.stringify(cards)));
    const imported = await runEntryPoint('src/cards-import.ts', [dump], { DATA_DIR: join(dataDir, 'data') });
    expect(imported.code).toBe(0);
    expect(imported.stdout.trim()).toMatch(new RegExp(`^Imported 301 cards \\(version import-[0-9a-f]{12}\\) into ${join(dataDir, 'data')}\\.$`));

    const shown = await runEntryPoint('src/cli.ts', ['card', 'show', '--name', 'Dark Magician'], { DATA_DIR: join(dataDir, 'data') });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('== Dark Magician ==');
    expect(shown.stdout).toContain('ATK 2500 / DEF 2100');
    expect(shown.stderr).not.toMatch(NO_STACK);
  });

  it('npm run cards:import takes a cardinfo.php body as plain .json, and refuses a broken file in one line', { timeout: 60_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-import-'));
    const cards = (JSON.parse(brotliDecompressSync(await readFile(DUMP)).toString('utf8')) as unknown[]).slice(0, 50);
    const body = join(dataDir, 'cardinfo.json');
    await writeFile(body, JSON.stringify({ data: cards }));
    const imported = await runEntryPoint('src/cards-import.ts', [body], { DATA_DIR: join(dataDir, 'data') });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported 50 cards \(version import-[0-9a-f]{12}\)/);

    const broken = join(dataDir, 'broken.json');
    await writeFile(broken, '{"data": [');
    const refused = await runEntryPoint('src/cards-import.ts', [broken], { DATA_DIR: join(dataDir, 'data') });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`Import failed: ${broken} is not JSON (truncated download?).`);

    const missing = await runEntryPoint('src/cards-import.ts', [], { DATA_DIR: join(dataDir, 'data') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Usage: npm run cards:import -- <cardinfo.json | cardinfo.json.br>');
  });

  it('looks up private, loopback and documentation addresses without GeoJS', async () => {
    const result = await runEntryPoint('src/cli.ts', ['ip', 'lookup', '--addresses', '192.168.1.10, 127.0.0.1, 203.0.113.7, 2001:db8::1']);
    expect(result.code).toBe(0);
    for (const range of ['private network (RFC 1918)', 'loopback', 'documentation range (RFC 5737)', 'documentation range (RFC 3849)']) {
      expect(result.stdout).toContain(`This address is in a ${range} range`);
    }
    expect(result.stdout).not.toContain('only you can see this');
  });

  it('card commands say the download failed and when the next attempt is, not "still loading"', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'almanac-no-cards-'));
    const result = await runEntryPoint('src/cli.ts', ['card', 'random'], { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stdout.trim()).toBe(
      'The card database is not available yet: YGOPRODeck could not be reached, and the next attempt is in about 5 minutes. Try again after that.',
    );
    expect(result.stderr).not.toMatch(NO_STACK);
  });
});

describe('logs on a terminal', () => {
  // `script` runs the CLI on a pseudo-terminal, as an operator's shell would.
  it.skipIf(!existsSync('/usr/bin/script'))('are pretty, one line each, where the CLI writes them (stderr)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'almanac-tty-'));
    const command = entryPointCommandLine('src/cli.ts', ['card', 'random']);
    const output = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...OFFLINE_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', () => resolve(text));
    });
    await rm(dataDir, { recursive: true, force: true });
    const plain = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), ''); // colours off
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: card database refresh failed \{.*"kind":"unavailable"/m);
    expect(plain).not.toContain('{"level"');
    expect(plain).toContain('The card database is not available yet');
  });
});

describe('npm scripts', () => {
  // `cards:import` starts as `cli` and `register` do (node --env-file-if-exists=.env --import tsx),
  // and tsx compiles the least of the app for it.
  it('print ".env not found" at most once', async () => {
    const output = await new Promise<string>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'cards:import', '--', '--help'], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', () => resolve(text));
    });
    expect(output).toContain('Usage: npm run cards:import --');
    expect(output.split('.env not found').length - 1).toBeLessThanOrEqual(1);
  });
});
