import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiscordAPIError, InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InteractionCallbacks } from '../../src/discord/interaction-callback.js';
import { createMetrics } from '../../src/runtime/metrics.js';

/** What the local server answers each POST with, in turn; past the list, 204. */
interface Planned {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

const INTERACTION = '1300000000000000001';
const TOKEN = 'aW50ZXJhY3Rpb246MTMwMDAwMDAwMDAwMDAwMDAwMTp0b2tlbg';

describe('InteractionCallbacks', () => {
  let server: Server;
  let api: string;
  const received: Received[] = [];
  const plan: Planned[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        const next = plan.shift() ?? { status: 204 };
        response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
        response.end(next.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  beforeEach(() => {
    received.length = 0;
    plan.length = 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const callbacks = (metrics = createMetrics()) => new InteractionCallbacks({ api, version: '10', timeout: 5_000, retries: 2, userAgentAppendix: '' }, metrics);
  const reply = { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'pong' }, files: [] };

  it('posts the acknowledgement as JSON to the interaction’s callback route, with discord.js’s user agent and no bot token', async () => {
    const metrics = createMetrics();
    await callbacks(metrics).send(INTERACTION, TOKEN, reply);
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe(`/api/v10/interactions/${INTERACTION}/${TOKEN}/callback`);
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(received[0]!.headers['user-agent']).toMatch(/^DiscordBot \(https:\/\/discord\.js\.org, /);
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(JSON.parse(received[0]!.body.toString())).toEqual({ type: 4, data: { content: 'pong' } });
    expect(await metrics.registry.getSingleMetricAsString('almanac_discord_responses_total')).toMatch(/status="204"\} 1/);
  });

  it('sends files as one multipart body beside the JSON', async () => {
    await callbacks().send(INTERACTION, TOKEN, { ...reply, files: [{ name: 'deck.ydk', data: Buffer.from('#main\n89631139\n') }] });
    expect(received[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = received[0]!.body.toString();
    expect(body).toContain('name="payload_json"');
    expect(body).toContain('filename="deck.ydk"');
    expect(body).toContain('89631139');
  });

  it('sends again after a 5xx, and after a short 429 once its retry_after has passed', async () => {
    plan.push({ status: 502, body: 'bad gateway' }, { status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.05, global: false }) });
    await callbacks().send(INTERACTION, TOKEN, reply);
    expect(received).toHaveLength(3);
  });

  it('fails with Discord’s error when the interaction is unknown, and does not send it again', async () => {
    plan.push({ status: 404, body: JSON.stringify({ message: 'Unknown interaction', code: 10062 }) });
    const failure = await callbacks().send(INTERACTION, TOKEN, reply).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiscordAPIError);
    expect(failure).toMatchObject({ status: 404, code: 10062 });
    expect(String((failure as Error).message)).not.toContain(TOKEN);
    expect(received).toHaveLength(1);
  });

  it('fails at once on a 429 longer than the acknowledgement could wait, and gives up after its retries', async () => {
    plan.push({ status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 30, global: false }) });
    await expect(callbacks().send(INTERACTION, TOKEN, reply)).rejects.toMatchObject({ status: 429 });
    expect(received).toHaveLength(1);
    received.length = 0;
    plan.push({ status: 500 }, { status: 500 }, { status: 503, body: '<html>' });
    await expect(callbacks().send(INTERACTION, TOKEN, reply)).rejects.toMatchObject({ status: 503 });
    expect(received).toHaveLength(3);
  });

  it('refuses an interaction id or token that is not one before sending anything', async () => {
    await expect(callbacks().send('../gateway', TOKEN, reply)).rejects.toThrow();
    await expect(callbacks().send(INTERACTION, 'a/../b', reply)).rejects.toThrow();
    expect(received).toHaveLength(0);
  });
});
