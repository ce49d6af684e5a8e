import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiscordAPIError, REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordRestOptions } from '../../src/discord/client.js';
import { messageRequest } from '../../src/discord/rest-request.js';

interface Received {
  method: string;
  url: string;
  contentType: string;
  body: Buffer;
}

/** discord.js's REST with Almanac's options, against a server that records what arrives. */
describe('discord.js REST sends through sendDiscordRequest', () => {
  const received: Received[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: { id: '1' } };
  let server: Server;
  let rest: REST;

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ method: request.method ?? '', url: request.url ?? '', contentType: request.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    rest = new REST({ ...discordRestOptions(`http://127.0.0.1:${port}/api`), retries: 0 }).setToken('test-token');
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends a JSON body and reads the JSON answer', async () => {
    answer = { status: 200, body: { id: '42', content: 'hello' } };
    const result = await rest.post('/channels/1/messages', { body: { content: 'hi' } });
    expect(result).toEqual({ id: '42', content: 'hello' });
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/api/v10/channels/1/messages', contentType: 'application/json' });
    expect(JSON.parse(received.at(-1)!.body.toString())).toEqual({ content: 'hi' });
  });

  it('sends a message with files as multipart/form-data encoded by messageRequest, each byte as given', async () => {
    answer = { status: 200, body: { id: '43' } };
    const art = Buffer.from([0xff, 0xd8, 0x00, 0x0d, 0x0a, 0xff, 0xd9]);
    await rest.post('/channels/1/messages', messageRequest({ content: 'art' }, [{ name: 'card.jpg', data: art }]));
    const { contentType, body } = received.at(-1)!;
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    expect(JSON.parse(String(form.get('payload_json')))).toMatchObject({ content: 'art' });
    const file = form.get('files[0]') as File;
    expect(file.name).toBe('card.jpg');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(art);
  });

  it('sends files given to discord.js itself (its FormData) as multipart/form-data too', async () => {
    answer = { status: 200, body: { id: '44' } };
    await rest.post('/channels/1/messages', { body: { content: 'raw' }, files: [{ name: 'card.txt', data: Buffer.from('card bytes') }] });
    const { contentType, body } = received.at(-1)!;
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    expect(JSON.parse(String(form.get('payload_json')))).toMatchObject({ content: 'raw' });
    expect(await (form.get('files[0]') as File).text()).toBe('card bytes');
  });

  it('turns an error answer into a DiscordAPIError with its status and code', async () => {
    answer = { status: 404, body: { code: 10062, message: 'Unknown interaction' } };
    const failure = await rest.post('/interactions/1/token/callback', { body: { type: 5 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiscordAPIError);
    expect(failure).toMatchObject({ status: 404, code: 10062 });
  });
});
