import { InteractionResponseType } from 'discord.js';
import { Agent, request } from 'undici';
import { expect } from 'vitest';
import { createLocalCache, type CacheFactory } from '../../src/upstream/cache.js';
import { createLocalLimiter, type LimiterFactory } from '../../src/upstream/limiter.js';
import type { LimiterState } from '../../src/runtime/status-report.js';
import type { FakeMessage, InteractionExchange, MessageWrite } from '../fakes/discord.js';
import { FakeServer, type FaultMode, type FakeResponse, type RecordedRequest } from '../fakes/fake-server.js';
import { CANARY_TOKEN, CANARY_WALLHAVEN_KEY, everythingSentToDiscord, type TestBot } from './bot.js';

/**
 * Shared pieces of the reliability suite (test/reliability): a fault-injecting proxy that sits in
 * front of any fake upstream, scaled limiters, a cache clock tests can move, the answer an
 * interaction ended with whatever its kind, and the secret-leak check every scenario ends with.
 */

/** Discord's deadline for the first acknowledgement, and the bound on the final answer. */
export const CALLBACK_DEADLINE_MS = 3_000;
export const FINAL_ANSWER_WITHIN_MS = 20_000;
/**
 * The fault tests' bots abandon a request after 1 s rather than production's 6–15 s, so "a timeout"
 * ends in about a second (loopback fakes answer in milliseconds, even on a busy machine);
 * test/upstream/upstream.test.ts checks that production's own leave time to answer.
 */
export const TEST_REQUEST_TIMEOUT_MS = { geojs: 1_000, wallhaven: 1_000, ygoprodeck: 1_000 } as const;

/**
 * A plain sentence as the router sends failures: one line of text, no embed, ending with a full stop.
 * It never echoes internals (no stack, no URL, no status code).
 */
export function expectPlainSentence(answer: Answer, pattern?: RegExp): void {
  expect(answer.embeds, answer.content).toEqual([]);
  expect(answer.content).toMatch(/^[^\n]+[.!?)]$/);
  expect(answer.content).not.toMatch(/https?:\/\/|\bat [\w.]+ \(|Error:|undici|ECONN|\b[45]\d\d\b/);
  if (pattern) expect(answer.content).toMatch(pattern);
}

/** What the user saw last: the reply, the edited original, or the follow-up of a deferred button press. */
export interface Answer {
  content: string;
  embeds: FakeMessage['embeds'];
  components: NonNullable<FakeMessage['components']>;
  ephemeral: boolean;
  /** Attachment names. */
  files: string[];
  callbackType: InteractionResponseType;
  message: FakeMessage;
}

/**
 * Waits for the interaction's answer. The fake Discord refuses an acknowledgement after 3 s, so a
 * callback arriving at all proves the deadline was met; the answer must then come within `withinMs`.
 * A component that deferred its update may answer with an ephemeral follow-up instead of an edit.
 */
export async function answerOf(exchange: InteractionExchange, withinMs = FINAL_ANSWER_WITHIN_MS): Promise<Answer> {
  const callback = await exchange.callback(withinMs);
  let message: FakeMessage;
  let files: string[];
  if (callback.type === InteractionResponseType.DeferredMessageUpdate || callback.type === InteractionResponseType.DeferredChannelMessageWithSource) {
    const write = await firstOf(exchange.waitForEdit(isAnswer, withinMs), exchange.waitForFollowUp(undefined, withinMs));
    message = write.message;
    files = write.files.map((file) => file.name);
  } else {
    const final = await exchange.final(withinMs);
    message = final;
    files = final.files.map((file) => file.name);
  }
  return {
    content: message.content,
    embeds: message.embeds,
    components: message.components ?? [],
    ephemeral: ((message.flags ?? 0) & 64) !== 0,
    files,
    callbackType: callback.type,
    message,
  };
}

/** An edit that answers, rather than a progress note shown while the answer waits (`⏳ …`, see `queueNote`). */
function isAnswer(edit: MessageWrite): boolean {
  return !(edit.message.embeds.length === 0 && edit.message.content.startsWith('⏳ '));
}

/** The first of two waits to succeed; the other is left to time out quietly. */
function firstOf<T>(...waits: Promise<T>[]): Promise<T> {
  for (const wait of waits) wait.catch(() => undefined);
  return Promise.any(waits);
}

/**
 * Limiters with their spacing divided by `scale` and their pauses by `pacing.pauseScale` (default:
 * the same), read at each pause so a test may change it between faults. Paired with fakes whose
 * windows are divided by the same scale, the number of requests per window (what a limit is about)
 * is unchanged, and a pause after a 429 ends that many times sooner. `base` makes them: in-process
 * ones by default, or a shared state's fleet limiters.
 */
export function scaledLimiters(scale: number, pacing: { pauseScale?: number } = {}, base: LimiterFactory = createLocalLimiter): LimiterFactory {
  return (options) => {
    const limiter = base({ ...options, minTimeMs: options.minTimeMs / scale });
    return { ...limiter, pause: (ms, reason) => limiter.pause(ms / (pacing.pauseScale ?? scale), reason) };
  };
}

/** A clock the caches read, so a test can age entries past their TTL and see stale-if-error. */
export class CacheClock {
  private offsetMs = 0;
  now = (): number => performance.now() + this.offsetMs;
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export function clockedCaches(clock: CacheClock): CacheFactory {
  return (options) => createLocalCache({ ...options, now: clock.now });
}

/**
 * A recording proxy in front of a fake upstream, for fault tests of any upstream alike: in `normal`
 * mode it forwards each request (headers that matter included) and relays the answer; the
 * FakeServer fault modes apply to it; and canned answers queued in `nextResponses` are served first,
 * one per request, without reaching the fake.
 */
export class FaultProxy extends FakeServer {
  readonly nextResponses: FakeResponse[] = [];
  /**
   * Canned answers leave this long after their request arrived, as they do when the machine (or the
   * network) is slow: a fault answer may then reach the bot after the test has moved on.
   */
  cannedAnswerDelayMs = 0;
  /** Answered to every request after `nextResponses`, until `reset()`. */
  private standingAnswer: FakeResponse | undefined;
  private cannedInFlight = 0;
  private readonly agent = new Agent({ connections: 16 });

  constructor(private readonly target: string) {
    super((incoming) => this.forward(incoming));
  }

  override reset(): void {
    super.reset();
    this.nextResponses.length = 0;
    this.standingAnswer = undefined;
  }

  answerEveryRequest(answer: FakeResponse): void {
    this.standingAnswer = answer;
  }

  /** Canned (fault) answers chosen but not yet sent. */
  get cannedAnswersInFlight(): number {
    return this.cannedInFlight;
  }

  override async close(): Promise<void> {
    await super.close();
    await this.agent.close();
  }

  private async forward(incoming: RecordedRequest): Promise<FakeResponse> {
    const canned = this.nextResponses.shift() ?? this.standingAnswer;
    if (canned) {
      if (this.cannedAnswerDelayMs === 0) return canned;
      this.cannedInFlight++;
      await new Promise((resolve) => setTimeout(resolve, this.cannedAnswerDelayMs));
      this.cannedInFlight--;
      return canned;
    }
    const headers: Record<string, string> = {};
    for (const name of ['accept', 'user-agent', 'x-api-key']) {
      const value = incoming.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await request(`${this.target}${incoming.url}`, { method: 'GET', headers, dispatcher: this.agent });
    const relayed: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'].includes(name)) {
        relayed[name] = Array.isArray(value) ? value.join(', ') : value;
      }
    }
    return { status: answer.statusCode, headers: relayed, body: Buffer.from(await answer.body.arrayBuffer()) };
  }
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  return new FaultProxy(target).start();
}

/**
 * Ends a fault for good before a test checks recovery: the proxy goes back to normal, every fault
 * answer already on its way has reached the bot and been acted on (each upstream limiter has no job
 * left running), and any pause it caused is waited out. Checking recovery any sooner races a late
 * 429 (a background refresh's, on a busy machine) that pauses the upstream after the check.
 */
export async function endFault(proxy: FaultProxy, limiters: () => LimiterState[]): Promise<void> {
  proxy.reset();
  await expect
    .poll(() => proxy.cannedAnswersInFlight === 0 && limiters().every((state) => state.running === 0), { timeout: FINAL_ANSWER_WITHIN_MS })
    .toBe(true);
  const pausedUntil = Math.max(0, ...limiters().map((state) => state.pausedUntil ?? 0));
  if (pausedUntil > 0) await new Promise((resolve) => setTimeout(resolve, pausedUntil - Date.now() + 20));
  for (const state of limiters()) expect(state.pausedUntil).toBeNull();
}

/** One upstream fault of the list, and the kind of failure it must be reported as. */
export interface UpstreamFault {
  name: string;
  kind: 'unavailable' | 'bad_response' | 'rate_limited';
  /** A FakeServer fault mode of the proxy, or a canned answer the test supplies. */
  cause: FaultMode | 'unexpected shape' | '429';
  retryAfterSeconds?: number;
}

export const UPSTREAM_FAULTS: readonly UpstreamFault[] = [
  { name: 'a timeout', kind: 'unavailable', cause: 'slow' },
  { name: 'a connection reset', kind: 'unavailable', cause: 'reset' },
  { name: 'a 500 with an HTML page', kind: 'unavailable', cause: 'html500' },
  { name: 'a 200 with truncated JSON', kind: 'bad_response', cause: 'malformed' },
  { name: 'a 200 with valid JSON of an unexpected shape', kind: 'bad_response', cause: 'unexpected shape' },
  // Long enough that a (20× scaled) pause is still on when the next command arrives.
  { name: 'a 429 with Retry-After', kind: 'rate_limited', cause: '429', retryAfterSeconds: 40 },
  { name: 'a 429 without Retry-After', kind: 'rate_limited', cause: '429' },
];

export interface FaultAnswers {
  /** A 200 JSON body the upstream could send that does not have the shape the client expects. */
  unexpectedShape: FakeResponse;
  /** The upstream's 429 page with these headers. */
  rateLimitPage(headers: Record<string, string>): FakeResponse;
}

/** Sets the proxy up so that every request (until `reset()`) meets `fault`. */
export function applyFault(proxy: FaultProxy, fault: UpstreamFault, answers: FaultAnswers): void {
  switch (fault.cause) {
    case 'unexpected shape':
    case '429': {
      const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      const answer = fault.cause === '429' ? answers.rateLimitPage(headers) : answers.unexpectedShape;
      proxy.answerEveryRequest(answer);
      break;
    }
    default:
      proxy.mode = fault.cause;
      // Longer than any upstream's request timeout (`REQUEST_TIMEOUT_MS`, and the tests' shorter ones).
      proxy.slowMs = 30_000;
  }
}

/** Every place a secret could escape to, as text. */
async function everywhereASecretCouldGo(bot: TestBot, upstreams: readonly FakeServer[]): Promise<Record<string, string>> {
  return {
    'log lines': bot.logs.text,
    'anything sent to Discord': everythingSentToDiscord(bot.discord),
    '/status data': JSON.stringify(bot.app.services.upstreamHealth()),
    '/metrics': await bot.app.services.metrics.registry.metrics(),
    'upstream URLs': upstreams.flatMap((server) => server.requests.map((recorded) => recorded.url)).join('\n'),
  };
}

/**
 * The canary token and Wallhaven key never appear in a log line, a reply, an error message (errors
 * are logged), /status, /metrics or an upstream URL. The key may travel only as the X-API-Key header.
 */
export async function expectNoSecretLeaks(bot: TestBot, upstreams: readonly FakeServer[] = []): Promise<void> {
  const secrets = [CANARY_TOKEN, CANARY_TOKEN.split('.')[2]!, CANARY_WALLHAVEN_KEY];
  for (const [where, text] of Object.entries(await everywhereASecretCouldGo(bot, upstreams))) {
    for (const secret of secrets) expect(text.includes(secret), `a secret leaked into ${where}`).toBe(false);
  }
  for (const server of upstreams) {
    for (const recorded of server.requests) {
      const key = recorded.headers['x-api-key'];
      if (key !== undefined) expect(key).toBe(CANARY_WALLHAVEN_KEY);
    }
  }
}

/** Log lines (from line `sinceLine` on) of interactions that ended in an unexpected error (a bug), rather than a plain refusal. */
export function crashLines(bot: TestBot, sinceLine = 0): Record<string, unknown>[] {
  return bot.logs.entries().slice(sinceLine).filter((line) => line.msg === 'interaction failed' || line.msg === 'interaction handler crashed' || line.msg === 'unhandled rejection');
}
