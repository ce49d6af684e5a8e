/**
 * Requests/s of the HTTP mode against its floor, measured in one run: the bare endpoint of
 * `bench/http-floor.ts` and Almanac's own `src/start-http.ts` (both in their own processes, both
 * compiled to JavaScript as `npm run start:http` runs it — under tsx, every function expression
 * also pays a naming call, about a tenth of Almanac's CPU per request — and both started before
 * the first window), driven by the closed-loop generator of
 * `bench/http-load.ts` in a third process. The windows alternate in rounds (bare, `/ip time`,
 * autocomplete, `/card show`, bare, …, then bare once more), a first round discarded as warm-up:
 * each of Almanac's windows is compared with the mean of the two bare windows around it, and a
 * scenario's ratio is the median of those per-round ratios. Load from the rest of a shared machine
 * drifts over seconds; a ratio between windows seconds apart moves much less than one between
 * windows a minute apart, and the spread over the rounds says how much it still moved. Last, each
 * scenario once more in open loop at `LOAD_SHARE` of its median rate: the latency a member sees
 * when the process is busy but not saturated.
 *
 * BENCH_HTTP_CPU_PROF=<dir> starts Almanac's process with `--cpu-prof` into that directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChannelType, InteractionContextType, InteractionResponseType, InteractionType } from 'discord.js';
import { startFakeDiscord } from '../test/fakes/discord.js';
import { DM_APP_PERMISSIONS } from '../test/fakes/discord-guilds.js';
import { CACHED_ADDRESSES, CACHED_CARDS } from './cached-mix.js';
import { copyDataDir, removeDir, sleep, type BenchUpstreams } from './harness.js';
import type { LoadJob, LoadResult } from './http-load.js';
import { median } from './stats.js';
import { productionEnvironment, productionNodeFlags } from './production-flags.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A start on a snapshot copy loads the whole database; allow for a busy machine. */
const READY_TIMEOUT_MS = 180_000;
/**
 * The most requests signed per second of a window: well above what either endpoint answers. A
 * window signs twice the rate its endpoint answered in its last window (signing is the generator's
 * work between windows, and not free).
 */
const SIGNED_PER_SECOND = 12_000;
/** Untimed requests per connection before each window after the warm-up round: reopens the connections the server closed while idle. */
const REWARM_PER_CONNECTION = 2;

export interface HttpThroughputOptions {
  /** Timed rounds; a first round, discarded, warms every endpoint up. */
  rounds: number;
  /** The length of each window of load. */
  durationMs: number;
  connections: number;
  /** Untimed requests before each window of the warm-up round (JIT, caches). */
  warmup: number;
}

export const HTTP_SCENARIOS = ['ipTime', 'autocomplete', 'cardShow'] as const;
export type HttpScenario = (typeof HTTP_SCENARIOS)[number];

/** How close to Almanac's own maximum requests/s its latency under load is measured. */
export const LOAD_SHARE = 0.8;

/** An open-loop window: requests sent at a fixed rate, answered or not. */
export interface OpenLoopWindow extends LoadResult {
  ratePerSecond: number;
  sent: number;
}

/** A scenario's per-round ratios to the bare endpoint, and their median. */
export interface RoundRatios {
  median: number;
  perRound: number[];
}

export interface HttpThroughputResult {
  connections: number;
  durationMs: number;
  /** The bare endpoint's windows: one before each timed round and one after the last. */
  bare: LoadResult[];
  /** Almanac's windows of each scenario, one per timed round. */
  almanac: Record<HttpScenario, LoadResult[]>;
  /** Requests/s, and requests per second of the endpoint's CPU time, as ratios to the bare endpoint's. */
  ratios: Record<HttpScenario, { throughput: RoundRatios; cpu: RoundRatios }>;
  /** Each scenario in open loop at `LOAD_SHARE` of its median requests/s: its latency under load. */
  atLoad: Record<HttpScenario, OpenLoopWindow>;
}

export const requestsPerSecond = (load: LoadResult) => load.answered / (load.elapsedMs / 1000);
/** Requests answered per second of the endpoint's own CPU time: what one core would answer. */
export const requestsPerCpuSecond = (load: LoadResult) => load.answered / (load.endpointCpuMs / 1000);

/** Each round's `rate` of `windows` over the mean of the bare windows' before and after it. */
export function roundRatios(bare: readonly LoadResult[], windows: readonly LoadResult[], rate: (load: LoadResult) => number): RoundRatios {
  const perRound = windows.map((window, round) => {
    const floor = (rate(bare[round]!) + rate(bare[round + 1]!)) / 2;
    return rate(window) / floor;
  });
  return { median: median(perRound), perRound };
}

interface Keys {
  publicKeyHex: string;
  privateKeyPem: string;
  privateKey: KeyObject;
}

function signingKeys(): Keys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyHex: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('hex'),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    privateKey,
  };
}

/** The payloads of the three cached scenarios, as Discord would send them (id and token per request). */
function payloads(applicationId: string): Record<HttpScenario, Record<string, unknown>> {
  const user = { id: '1356000000000000200', username: 'bench', discriminator: '0', global_name: null, avatar: null };
  // The bot's DM, where Almanac may attach files (so /card show answers with the art).
  const base = {
    application_id: applicationId,
    version: 1,
    locale: 'en-US',
    user,
    channel: { id: '1356000000000000300', type: ChannelType.DM, last_message_id: null, flags: 0, recipients: [user] },
    channel_id: '1356000000000000300',
    context: InteractionContextType.BotDM,
    authorizing_integration_owners: { 0: '0' },
    app_permissions: DM_APP_PERMISSIONS.toString(),
  };
  const command = (name: string, subcommand: string, option: Record<string, unknown>) => ({
    ...base,
    type: InteractionType.ApplicationCommand,
    data: { id: '2', name, type: 1, options: [{ name: subcommand, type: 1, options: [option] }] },
  });
  return {
    ipTime: command('ip', 'time', { name: 'address', type: 3, value: CACHED_ADDRESSES[0] }),
    autocomplete: {
      ...base,
      type: InteractionType.ApplicationCommandAutocomplete,
      data: { id: '1', name: 'card', type: 1, options: [{ name: 'show', type: 1, options: [{ name: 'name', type: 3, value: 'dark magic', focused: true }] }] },
    },
    cardShow: command('card', 'show', { name: 'name', type: 3, value: String(CACHED_CARDS[0]) }),
  };
}

/** Runs `args` with Node in the project's directory, talking over IPC. */
function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    // Logs are written and serialised as in production, but not kept.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

/** `file` of the compiled tree at `compiledRoot` (see compile.ts), `src/start-http.ts` as `<root>/src/start-http.js`. */
function spawnCompiled(compiledRoot: string, file: string, env: Record<string, string>, execArgv: string[] = []): ChildProcess {
  return spawnNode([...execArgv, join(compiledRoot, file.replace(/\.ts$/, '.js'))], env);
}

function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${child.spawnargs.at(-1)} exited with code ${code}`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message as T);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One signed request from this process (readiness and priming, not the timed load). */
async function post(url: string, keys: Keys, payload: Record<string, unknown>): Promise<Response> {
  const body = JSON.stringify({ ...payload, id: String(1_356_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e12))), token: 'bench-prime' });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + body), keys.privateKey).toString('hex');
  return fetch(url, { method: 'POST', body, headers: { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'content-type': 'application/json' } });
}

/** Polls until `ready` holds for a signed request's response, or fails after `timeoutMs`. */
async function until(what: string, timeoutMs: number, attempt: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await attempt().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`bench http: ${what} within ${timeoutMs} ms`);
}

/** A started endpoint: where to post, and its process (whose CPU time each window reports). */
interface Endpoint {
  url: string;
  pid: number | undefined;
}

/** The generator process, driving one window after another. */
interface Generator {
  /** A closed-loop window of `signed` requests at most, or an open-loop one of `signed` requests at `ratePerSecond`. */
  window(endpoint: Endpoint, keys: Keys, payload: Record<string, unknown>, warmup: number, signed: number, ratePerSecond?: number): Promise<LoadResult>;
}

async function withGenerator<T>(options: HttpThroughputOptions, use: (generator: Generator) => Promise<T>): Promise<T> {
  // The generator is not measured: it runs under tsx.
  const child = spawnNode(['--import', 'tsx', fileURLToPath(new URL('./http-load.ts', import.meta.url))], {});
  // Interaction ids handed out so far: each window gets its own range.
  let idsUsed = 0;
  try {
    return await use({
      window(endpoint, keys, payload, warmup, signed, ratePerSecond) {
        const job: LoadJob = {
          url: endpoint.url,
          endpointPid: endpoint.pid,
          firstId: idsUsed,
          privateKeyPem: keys.privateKeyPem,
          payload,
          warmup,
          count: signed,
          connections: options.connections,
          durationMs: options.durationMs,
          ...(ratePerSecond === undefined ? {} : { ratePerSecond }),
        };
        idsUsed += warmup + signed;
        const result = firstMessage<LoadResult>(child);
        child.send(job);
        return result;
      },
    });
  } finally {
    await stopChild(child);
  }
}

async function bareEndpoint<T>(keys: Keys, compiledRoot: string, use: (endpoint: Endpoint) => Promise<T>): Promise<T> {
  const floor = spawnCompiled(compiledRoot, 'bench/http-floor.ts', { DISCORD_PUBLIC_KEY: keys.publicKeyHex });
  try {
    const { port } = await firstMessage<{ port: number }>(floor);
    return await use({ url: `http://127.0.0.1:${port}/interactions`, pid: floor.pid });
  } finally {
    await stopChild(floor);
  }
}

/** `npm run start:http` (compiled, at `compiledRoot`) on a copy of `snapshotDir`, its webhook writes going to a fake Discord. */
async function almanacEndpoint<T>(
  keys: Keys,
  upstreams: BenchUpstreams,
  snapshotDir: string,
  compiledRoot: string,
  use: (endpoint: Endpoint, applicationId: string) => Promise<T>,
): Promise<T> {
  const discord = await startFakeDiscord();
  const dataDir = await copyDataDir(snapshotDir);
  const port = await freePort();
  const profileDir = process.env.BENCH_HTTP_CPU_PROF;
  const server = spawnCompiled(
    compiledRoot,
    'src/start-http.ts',
    {
      ...productionEnvironment('start:http'),
      ...upstreams.env,
      // Nothing from the caller's environment may add a key, Redis or an ops server to what is measured.
      WALLHAVEN_API_KEY: '',
      METRICS_PORT: '',
      REDIS_URL: '',
      DISCORD_TOKEN: '',
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      INTERACTIONS_PORT: String(port),
      DISCORD_API_URL: discord.apiUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    [...productionNodeFlags('start:http'), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  );
  try {
    const url = `http://127.0.0.1:${port}/interactions`;
    const ping = { application_id: discord.applicationId, version: 1, type: InteractionType.Ping };
    await until('Almanac did not answer a PING', READY_TIMEOUT_MS, async () => (await post(url, keys, ping)).status === 200);
    return await use({ url, pid: server.pid }, discord.applicationId);
  } finally {
    await stopChild(server);
    await discord.close();
    await removeDir(dataDir);
  }
}

/**
 * The bare endpoint and Almanac side by side: a warm-up round, then `rounds` timed rounds of
 * alternating windows (bare, Almanac's three cached scenarios), then one last bare window.
 */
export async function benchHttpThroughput(
  upstreams: BenchUpstreams,
  snapshotDir: string,
  compiledRoot: string,
  options: HttpThroughputOptions,
): Promise<HttpThroughputResult> {
  const keys = signingKeys();
  return bareEndpoint(keys, compiledRoot, (floor) =>
    almanacEndpoint(keys, upstreams, snapshotDir, compiledRoot, async (server, applicationId) => {
      const { url } = server;
      const scenarios = payloads(applicationId);
      // Cached means cached: the address looked up once, the card's art stored (its first show is deferred).
      await until('/ip time was not answered', 30_000, async () => ((await (await post(url, keys, scenarios.ipTime)).json()) as { type: number }).type === InteractionResponseType.ChannelMessageWithSource);
      await until('/card show did not answer with its art', 60_000, async () => {
        const response = await post(url, keys, scenarios.cardShow);
        await response.arrayBuffer();
        return response.headers.get('content-type')?.startsWith('multipart/form-data') === true;
      });
      return withGenerator(options, async (generator) => {
        const endpoints = [
          { name: 'bare', endpoint: floor, payload: payloads('1').ipTime },
          ...HTTP_SCENARIOS.map((scenario) => ({ name: scenario, endpoint: server, payload: scenarios[scenario] })),
        ];
        const lastRate = new Map<string, number>();
        const window = async (endpoint: (typeof endpoints)[number], warmup: number, signed?: number) => {
          const perSecond = Math.min(SIGNED_PER_SECOND, 2 * (lastRate.get(endpoint.name) ?? SIGNED_PER_SECOND));
          const result = await generator.window(endpoint.endpoint, keys, endpoint.payload, warmup, signed ?? Math.ceil((options.durationMs / 1000) * perSecond) + options.connections);
          lastRate.set(endpoint.name, requestsPerSecond(result));
          return result;
        };
        // The warm-up round's windows are discarded: they only measure each endpoint's rate, to sign enough for the next.
        for (const endpoint of endpoints) await window(endpoint, options.warmup, options.warmup);
        const rewarm = REWARM_PER_CONNECTION * options.connections;
        const bare: LoadResult[] = [];
        const almanac = Object.fromEntries(HTTP_SCENARIOS.map((scenario) => [scenario, [] as LoadResult[]])) as Record<HttpScenario, LoadResult[]>;
        for (let round = 0; round < options.rounds; round++) {
          bare.push(await window(endpoints[0]!, rewarm));
          for (const [index, scenario] of HTTP_SCENARIOS.entries()) almanac[scenario].push(await window(endpoints[index + 1]!, rewarm));
        }
        bare.push(await window(endpoints[0]!, rewarm));
        const atLoad = {} as Record<HttpScenario, OpenLoopWindow>;
        for (const scenario of HTTP_SCENARIOS) {
          const ratePerSecond = LOAD_SHARE * median(almanac[scenario].map(requestsPerSecond));
          const sent = Math.max(1, Math.round((options.durationMs / 1000) * ratePerSecond));
          atLoad[scenario] = { ...(await generator.window(server, keys, scenarios[scenario], rewarm, sent, ratePerSecond)), ratePerSecond, sent };
        }
        const ratios = Object.fromEntries(
          HTTP_SCENARIOS.map((scenario) => [
            scenario,
            { throughput: roundRatios(bare, almanac[scenario], requestsPerSecond), cpu: roundRatios(bare, almanac[scenario], requestsPerCpuSecond) },
          ]),
        ) as HttpThroughputResult['ratios'];
        return { connections: options.connections, durationMs: options.durationMs, bare, almanac, ratios, atLoad };
      });
    }),
  );
}
