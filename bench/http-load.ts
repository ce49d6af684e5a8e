/**
 * The load generator of the HTTP section, in its own process so that neither endpoint shares an
 * event loop with it. It takes `LoadJob`s over IPC one at a time and answers each with a
 * `LoadResult`: it signs every request of the job in advance (each a distinct interaction id, as
 * Discord never sends one twice), then either keeps `connections` keep-alive connections busy for
 * `durationMs` (closed loop: how many requests/s an endpoint answers at most), or sends requests at
 * a fixed rate whatever the answers do (open loop: the latency of an endpoint at a given load). One generator serves a whole section, its connection pools kept per endpoint, so
 * that windows against several endpoints can alternate; it exits when the bench disconnects.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { summarize } from './stats.js';

export interface LoadJob {
  url: string;
  /** PKCS#8 PEM of the Ed25519 key Discord would sign with. */
  privateKeyPem: string;
  /** The interaction payload; `id` and `token` are filled in per request. */
  payload: Record<string, unknown>;
  /** The first interaction id's offset: no two jobs against one endpoint may share an id (a replay runs nothing). */
  firstId: number;
  /** Requests sent, untimed, before the timed window (JIT, caches, connections reopened). */
  warmup: number;
  /** Requests signed for the timed window: more than it can send (closed loop), or the window's rate times its length (open loop). */
  count: number;
  connections: number;
  durationMs: number;
  /** Open loop: the requests per second sent, answered or not; closed loop when absent. */
  ratePerSecond?: number;
  /** The endpoint's process, whose CPU time over the timed window is reported. */
  endpointPid?: number;
}

export interface LoadResult {
  answered: number;
  /** Any status but 200, or an empty body (a replay the endpoint ran nothing for). */
  failed: number;
  /** The signed requests ran out before the deadline: requests/s is then a floor. */
  exhausted: boolean;
  elapsedMs: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * CPU time (user and system, all its threads) the endpoint's process spent over the timed
   * window, in ms: unlike requests/s, it hardly moves when other work on the machine takes cores
   * away. NaN where /proc cannot say.
   */
  endpointCpuMs: number;
}

interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

function signAll(job: LoadJob, first: number, count: number): SignedRequest[] {
  const key = createPrivateKey(job.privateKeyPem);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return Array.from({ length: count }, (_, index) => {
    const id = first + index;
    const body = JSON.stringify({ ...job.payload, id: String(1_356_000_000_000_000_000n + BigInt(id)), token: `bench-${id}` });
    const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
    return { body, headers: { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'content-type': 'application/json' } };
  });
}

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/** The CPU time of process `pid` so far, in ms (10 ms resolution); NaN where /proc cannot say. */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), from the state (field 3 of proc(5)) on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

async function drive(pool: Pool, url: URL, requests: readonly SignedRequest[], connections: number, durationMs: number): Promise<Omit<LoadResult, 'endpointCpuMs'>> {
  const latencies: number[] = [];
  let answered = 0;
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline && next < requests.length) {
      const request = requests[next++]!;
      const sent = performance.now();
      const response = await pool.request({ path: url.pathname, method: 'POST', headers: request.headers, body: request.body });
      const body = await response.body.arrayBuffer();
      if (response.statusCode === 200 && body.byteLength > 0) {
        answered++;
        latencies.push(performance.now() - sent);
      } else {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsedMs = performance.now() - started;
  const { p50Ms, p99Ms } = latencies.length > 0 ? summarize(latencies) : { p50Ms: Number.NaN, p99Ms: Number.NaN };
  return { answered, failed, exhausted: next >= requests.length && performance.now() < deadline, elapsedMs, p50Ms, p99Ms };
}

/**
 * Open loop: request `index` is due `index / ratePerSecond` seconds into the window and leaves then,
 * however many are still unanswered (queued in the pool when every connection is busy), and is timed
 * from when it was due. A closed loop times a request from when a connection was free, so a stall
 * delays the requests behind it without counting against them (coordinated omission); Discord does
 * not wait for an answer before sending the next interaction either.
 */
async function driveOpen(pool: Pool, url: URL, requests: readonly SignedRequest[], ratePerSecond: number): Promise<Omit<LoadResult, 'endpointCpuMs'>> {
  const latencies: number[] = [];
  let answered = 0;
  let failed = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const send = async (request: SignedRequest, due: number) => {
    try {
      const response = await pool.request({ path: url.pathname, method: 'POST', headers: request.headers, body: request.body });
      const body = await response.body.arrayBuffer();
      if (response.statusCode === 200 && body.byteLength > 0) {
        answered++;
        latencies.push(performance.now() - due);
        return;
      }
    } catch {
      // A refused or reset connection is a failed request, not the end of the window.
    }
    failed++;
  };
  for (let next = 0; next < requests.length; ) {
    const now = performance.now();
    // Every request due by now leaves now: timers fire a millisecond apart at best, requests can be due more often.
    for (; next < requests.length && started + (next * 1000) / ratePerSecond <= now; next++) pending.push(send(requests[next]!, started + (next * 1000) / ratePerSecond));
    if (next < requests.length) await sleep(Math.max(0, started + (next * 1000) / ratePerSecond - performance.now()));
  }
  await Promise.all(pending);
  const elapsedMs = performance.now() - started;
  const { p50Ms, p99Ms } = latencies.length > 0 ? summarize(latencies) : { p50Ms: Number.NaN, p99Ms: Number.NaN };
  return { answered, failed, exhausted: false, elapsedMs, p50Ms, p99Ms };
}

const pools = new Map<string, Pool>();

async function run(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  let pool = pools.get(url.origin);
  if (!pool) {
    pool = new Pool(url.origin, { connections: job.connections, pipelining: 1 });
    pools.set(url.origin, pool);
  }
  const warmup = signAll(job, job.firstId, job.warmup);
  const timed = signAll(job, job.firstId + job.warmup, job.count);
  await drive(pool, url, warmup, job.connections, Number.POSITIVE_INFINITY);
  const cpuBefore = cpuMsOf(job.endpointPid);
  const result = job.ratePerSecond === undefined ? await drive(pool, url, timed, job.connections, job.durationMs) : await driveOpen(pool, url, timed, job.ratePerSecond);
  return { ...result, endpointCpuMs: cpuMsOf(job.endpointPid) - cpuBefore };
}

// Jobs arrive one at a time: the bench waits for each result before sending the next job.
process.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.(result),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.once('disconnect', () => {
  void Promise.all([...pools.values()].map((pool) => pool.close())).finally(() => process.exit(0));
});
