import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RestChannelPoster } from '../../src/scheduler/channel-poster.js';

/** How Discord's answers to a scheduled post are read: a message, a refused channel, a rate limit waited out, anything else. */

interface Answer {
  status: number;
  body: unknown;
}

let server: Server | undefined;
const bodies: unknown[] = [];
/** Posts with files, as sent: read back with the platform's own multipart parser. */
const uploads: { type: string; data: Buffer }[] = [];

async function discordAnswering(answers: Answer[]): Promise<string> {
  bodies.length = 0;
  uploads.length = 0;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const data = Buffer.concat(chunks);
      const type = request.headers['content-type'] ?? '';
      if (type === 'application/json') bodies.push({ auth: request.headers.authorization, url: request.url, json: JSON.parse(data.toString()) as unknown });
      else uploads.push({ type, data });
      const answer = answers.shift() ?? { status: 500, body: {} };
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('RestChannelPoster', () => {
  it('posts with the bot token, the nonce and enforce_nonce, pinging nobody', async () => {
    const poster = new RestChannelPoster({ apiUrl: await discordAnswering([{ status: 200, body: { id: '77' } }]), token: 'tok' });
    expect(await poster.post('123', { content: '@everyone hi' }, 's1.abc')).toEqual({ ok: true, messageId: '77' });
    expect(bodies).toEqual([
      { auth: 'Bot tok', url: '/api/v10/channels/123/messages', json: { content: '@everyone hi', nonce: 's1.abc', enforce_nonce: true, allowed_mentions: { parse: [] } } },
    ]);
  });

  it('sends a post with files as Discord reads them: the JSON naming each attachment, then the files', async () => {
    const poster = new RestChannelPoster({ apiUrl: await discordAnswering([{ status: 200, body: { id: '79' } }]), token: 'tok' });
    const image = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x2d, 0x2d, 0xff, 0xd9]);
    const message = { content: 'new', embeds: [{ image: { url: 'attachment://set-LOB.jpg' } }], files: [{ name: 'set-LOB.jpg', data: image, description: 'Legend' }] };
    expect(await poster.post('123', message, 'n')).toEqual({ ok: true, messageId: '79' });
    expect(bodies).toEqual([]);
    const form = await new Response(uploads[0]!.data, { headers: { 'content-type': uploads[0]!.type } }).formData();
    expect(JSON.parse(form.get('payload_json') as string)).toEqual({
      content: 'new',
      embeds: [{ image: { url: 'attachment://set-LOB.jpg' } }],
      attachments: [{ id: 0, filename: 'set-LOB.jpg', description: 'Legend' }],
      nonce: 'n',
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
    });
    const file = form.get('files[0]') as File;
    expect(file.name).toBe('set-LOB.jpg');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(image);
  });

  it('waits out a rate limit and sends the same post again', async () => {
    const poster = new RestChannelPoster({ apiUrl: await discordAnswering([{ status: 429, body: { retry_after: 0.05, global: false } }, { status: 200, body: { id: '78' } }]), token: 'tok' });
    expect(await poster.post('123', { content: 'x' }, 'n')).toEqual({ ok: true, messageId: '78' });
    expect(bodies).toHaveLength(2);
  });

  it.each([
    [404, { code: 10003, message: 'Unknown Channel' }, { ok: false, refused: 'unknown-channel', status: 404 }],
    [403, { code: 50001, message: 'Missing Access' }, { ok: false, refused: 'missing-access', status: 403 }],
    [403, { code: 50013, message: 'Missing Permissions' }, { ok: false, refused: 'missing-access', status: 403 }],
    [404, {}, { ok: false, refused: 'unknown-channel', status: 404 }],
    [503, {}, { ok: false, status: 503, error: 'HTTP 503' }],
    [400, { code: 50035 }, { ok: false, status: 400, error: 'HTTP 400 code 50035' }],
  ])('reads %i %j as %j', async (status, body, outcome) => {
    const poster = new RestChannelPoster({ apiUrl: await discordAnswering([{ status, body }]), token: 'tok' });
    expect(await poster.post('123', { content: 'x' }, 'n')).toEqual(outcome);
  });
});
