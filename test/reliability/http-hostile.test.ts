import { connect } from 'node:net';
import { InteractionType } from 'discord.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commands } from '../../commands/index.js';
import type { ChatInputCommand, Command, MessageContextCommand } from '../../src/interaction/command.js';
import type { AppServices } from '../../src/app/services.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/http/interactions-server.js';
import { nodeSigningKeys, signatureHeadersFor, signatureTimestamp, tweetnaclSigningKeys } from '../fakes/discord-http.js';
import { startFakeGeoJs, type FakeGeoJs } from '../fakes/geojs.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { nestedOptionsBody } from '../helpers/hostile-input.js';
import { startTestHttpBot, type TestHttpBot } from '../helpers/http-bot.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** Fuzzed unsigned and badly signed requests (see test/helpers/fuzz-runs.ts). */
const HOSTILE_REQUESTS = fuzzRuns(2_000);

const REQUEST_TIMEOUT_MS = 1_000;

/** Every command, with each handler call counted: no unsigned request may ever reach one. */
function countingCommands(count: () => void): Command<AppServices>[] {
  return commands.map((command): Command<AppServices> => {
    if (command.kind === 'message') {
      const counted: MessageContextCommand<AppServices> = { ...command, execute: (ctx, app) => (count(), command.execute(ctx, app)) };
      return counted;
    }
    const counted: ChatInputCommand<AppServices> = { ...command, execute: (ctx, app) => (count(), command.execute(ctx, app)) };
    const { autocomplete, handleComponent } = command;
    if (autocomplete) counted.autocomplete = (ctx, app) => (count(), autocomplete(ctx, app));
    if (handleComponent) counted.handleComponent = (ctx, app) => (count(), handleComponent(ctx, app));
    return counted;
  });
}

describe('HTTP mode: hostile requests never reach a handler or an upstream', () => {
  let bot: TestHttpBot;
  let geo: FakeGeoJs;
  let wallhaven: FakeWallhaven;
  let ygoprodeck: FakeYgoprodeck;
  let handlerCalls = 0;
  let upstreamRequestsBefore = 0;
  let interactionBody: string;

  const upstreamRequests = () => geo.requests.length + wallhaven.requests.length + ygoprodeck.server.requests.length;
  const post = (body: string | Buffer, headers: Record<string, string>, method = 'POST', url = bot.url) =>
    fetch(url, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body }) });

  beforeAll(async () => {
    [geo, wallhaven, ygoprodeck] = await Promise.all([startFakeGeoJs(), startFakeWallhaven(), startFakeYgoprodeck()]);
    bot = await startTestHttpBot({
      commands: countingCommands(() => handlerCalls++),
      env: { GEOJS_URL: geo.url, WALLHAVEN_URL: wallhaven.url, YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl },
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
      server: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
    });
    // A real interaction that would call GeoJS, were it ever run.
    interactionBody = JSON.stringify({
      id: '1356000000000009999',
      application_id: bot.discord.applicationId,
      token: 'hostile-token',
      type: InteractionType.ApplicationCommand,
      version: 1,
      locale: 'en-US',
      user: { id: '1356000000000000200', username: 'tester' },
      data: { id: '1', name: 'ip', type: 1, options: [{ name: 'lookup', type: 1, options: [{ name: 'addresses', type: 3, value: '8.8.8.8' }] }] },
    });
    // The card database's own start-up requests (set list, version check) come first; then the count is frozen.
    expect(await bot.app.services.cards.whenSetsReady(10_000)).toBe(true);
    await vi.waitFor(() => expect(ygoprodeck.requestsTo('/api/v7/checkDBVer.php')).toHaveLength(1), { timeout: 10_000 });
    upstreamRequestsBefore = upstreamRequests();
  }, 60_000);

  afterAll(async () => {
    // Whatever happened above: nothing unsigned ran a handler, asked an upstream or wrote to Discord.
    expect(handlerCalls).toBe(0);
    expect(upstreamRequests()).toBe(upstreamRequestsBefore);
    expect(bot.discord.calls).toEqual([]);
    await bot?.stop();
    await Promise.all([geo?.close(), wallhaven?.close(), ygoprodeck?.close()]);
  });

  it('refuses a request without signature headers, or with malformed ones, with 401', async () => {
    const valid = signatureHeadersFor(bot.keys, interactionBody);
    expect((await post(interactionBody, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await post(interactionBody, { 'x-signature-timestamp': valid['x-signature-timestamp']! })).status).toBe(401);
    expect((await post(interactionBody, { 'x-signature-ed25519': valid['x-signature-ed25519']! })).status).toBe(401);
    expect((await post(interactionBody, { ...valid, 'x-signature-ed25519': 'zz'.repeat(64) })).status).toBe(401);
    expect((await post(interactionBody, { ...valid, 'x-signature-timestamp': 'yesterday' })).status).toBe(401);
  });

  it('refuses a bad signature, another key’s signature and a valid signature over a modified body with 401', async () => {
    const valid = signatureHeadersFor(bot.keys, interactionBody);
    expect((await post(interactionBody, { ...valid, 'x-signature-ed25519': '00'.repeat(64) })).status).toBe(401);
    expect((await post(interactionBody, signatureHeadersFor(nodeSigningKeys(), interactionBody))).status).toBe(401);
    expect((await post(interactionBody, signatureHeadersFor(tweetnaclSigningKeys(), interactionBody))).status).toBe(401);
    expect((await post(interactionBody.replace('8.8.8.8', '1.1.1.1'), valid)).status).toBe(401);
    expect((await post(`${interactionBody} `, valid)).status).toBe(401);
    // The signature covers the timestamp too: the same signature with another timestamp is refused.
    const moved = String(Number(valid['x-signature-timestamp']) + 1);
    expect((await post(interactionBody, { ...valid, 'x-signature-timestamp': moved })).status).toBe(401);
  });

  it('refuses a correctly signed request whose timestamp is more than 5 minutes from now, either way', async () => {
    const ping = JSON.stringify({ id: '2', application_id: bot.discord.applicationId, token: 't', type: 1, version: 1 });
    const at = (offsetMs: number) => signatureHeadersFor(bot.keys, ping, signatureTimestamp(Date.now() + offsetMs));
    expect((await post(ping, at(-6 * 60_000))).status).toBe(401);
    expect((await post(ping, at(6 * 60_000))).status).toBe(401);
    expect((await post(ping, at(-4 * 60_000))).status).toBe(200);
  });

  it('answers an oversized body 413 when signed, 401 when not, without reading it all', async () => {
    const huge = Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 1, 0x20);
    expect((await post(huge, signatureHeadersFor(bot.keys, huge))).status).toBe(413);
    expect((await post(huge, { 'content-type': 'application/json' })).status).toBe(401);
  });

  it('answers 400 to malformed JSON or a non-interaction after a valid signature', async () => {
    for (const body of ['{"type":2,', 'null', '[]', '"text"', '{"type":"2"}', '{"type":2,"id":"1"}']) {
      const response = await post(body, signatureHeadersFor(bot.keys, body));
      expect(response.status, body).toBe(400);
    }
  });

  it('answers 400 to options nested deeper than Discord nests them (group → subcommand → option), even thousands deep', async () => {
    for (const depth of [4, 7_500]) {
      const body = nestedOptionsBody(depth, { id: '1356000000000009998', applicationId: bot.discord.applicationId });
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(DEFAULT_MAX_BODY_BYTES);
      const response = await post(body, signatureHeadersFor(bot.keys, body));
      expect(response.status, `${depth} deep`).toBe(400);
    }
  });

  it('answers 405 (Allow: POST) to other methods and 404 to other paths', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await post(interactionBody, signatureHeadersFor(bot.keys, interactionBody), method);
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect((await post(interactionBody, signatureHeadersFor(bot.keys, interactionBody), 'POST', bot.url.replace('/interactions', '/'))).status).toBe(404);
  });

  it('times out a request whose body never finishes arriving (408), and closes the connection', async () => {
    const headers = signatureHeadersFor(bot.keys, interactionBody);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(bot.url).port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.write(
        `POST /interactions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${interactionBody.length}\r\n` +
          `x-signature-ed25519: ${headers['x-signature-ed25519']}\r\nx-signature-timestamp: ${headers['x-signature-timestamp']}\r\n\r\n` +
          interactionBody.slice(0, 10),
      );
      setTimeout(() => reject(new Error('the server kept a stalled request open')), REQUEST_TIMEOUT_MS * 10).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it(`survives ${HOSTILE_REQUESTS} fuzzed unsigned and badly signed requests, refusing every one`, async () => {
    const other = nodeSigningKeys();
    const headerText = fc.stringMatching(/^[\x21-\x7e]{0,140}$/);
    const body = fc.oneof(
      fc.constant(interactionBody),
      fc.string({ maxLength: 300 }),
      fc.json({ maxDepth: 3 }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const headers = fc.oneof(
      fc.record({ signature: fc.option(headerText), timestamp: fc.option(headerText) }, { requiredKeys: [] }).map(({ signature, timestamp }) => ({
        ...(typeof signature === 'string' ? { 'x-signature-ed25519': signature } : {}),
        ...(typeof timestamp === 'string' ? { 'x-signature-timestamp': timestamp } : {}),
      })),
      // Well-formed but wrong: another key, or a random 64-byte signature.
      fc.constant('other-key' as const),
      fc.uint8Array({ minLength: 64, maxLength: 64 }).map((bytes) => ({ 'x-signature-ed25519': Buffer.from(bytes).toString('hex'), 'x-signature-timestamp': signatureTimestamp() })),
    );
    const method = fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'GET');
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(body, headers, method, async (text, headerChoice, verb) => {
        runs++;
        const sent = headerChoice === 'other-key' ? signatureHeadersFor(other, text) : headerChoice;
        const response = await post(text, { 'content-type': 'application/json', ...sent }, verb);
        await response.arrayBuffer();
        expect(verb === 'POST' ? [401, 413] : [405]).toContain(response.status);
      }),
      { numRuns: HOSTILE_REQUESTS, seed: 1_414 },
    );
    expect(runs).toBe(HOSTILE_REQUESTS);
    const refused = await (await fetch(`${bot.url}`, { method: 'POST' })).text();
    expect(refused).toBe('invalid request signature\n');
  }, 120_000);
});

describe('HTTP mode: a slowloris costs a counter and one summary line, never a line per connection', () => {
  it('200 connections that stall or abandon their bodies log no stack trace and one summary line', async () => {
    const bot = await startTestHttpBot({ overrides: { startCardDatabase: false }, server: { requestTimeoutMs: 500 } });
    const dropped = async () => (await bot.app.services.metrics.interactionRequestsDropped.get()).values.find((value) => value.labels.reason === 'incomplete')?.value ?? 0;
    const linesBefore = bot.logs.lines.length;
    try {
      // Signature headers of the right shape (no valid signature is needed) get a request as far as reading its body.
      const head =
        'POST /interactions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n' +
        `x-signature-ed25519: ${'ab'.repeat(64)}\r\nx-signature-timestamp: ${signatureTimestamp()}\r\n\r\n{"type":`;
      const closed = Array.from(
        { length: 200 },
        (_, index) =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(new URL(bot.url).port), '127.0.0.1');
            socket.on('error', () => undefined);
            socket.on('close', () => resolve());
            // Read what the server says (its 408), or the connection never ends.
            socket.resume();
            // Half of them stall until the server's request timeout, the other half give up.
            socket.write(head, () => (index % 2 === 0 ? undefined : socket.destroy()));
          }),
      );
      await Promise.all(closed);
      await vi.waitFor(async () => expect(await dropped()).toBe(200), { timeout: 10_000 });
      // Nothing at info or above while it lasted; each one's error is at debug only.
      expect(bot.logs.entries().slice(linesBefore).filter((line) => (line.level as number) >= 30)).toEqual([]);
    } finally {
      await bot.stop();
    }
    const logged = bot.logs.entries().slice(linesBefore).filter((line) => (line.level as number) >= 30);
    expect(logged.filter((line) => JSON.stringify(line).includes('"stack"'))).toEqual([]);
    const summaries = logged.filter((line) => String(line.msg).includes('interactions requests dropped'));
    expect(summaries.map((line) => line.msg)).toEqual(['200 interactions requests dropped in the last minute (200 incomplete)']);
    expect(logged.length).toBeLessThanOrEqual(3);
  });
});
