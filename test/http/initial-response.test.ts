import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InteractionResponseType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InitialResponse } from '../../src/discord/responder.js';
import { writeInitialResponse } from '../../src/http/initial-response.js';

describe('writeInitialResponse', () => {
  let server: Server;
  let answer: InitialResponse;
  let url: string;

  beforeAll(async () => {
    server = createServer((_req, res) => void writeInitialResponse(res, answer));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers JSON when no file is attached', async () => {
    answer = { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'hello' }, files: [] };
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ type: 4, data: { content: 'hello' } });
  });

  it('answers multipart/form-data that a standard parser reads back: payload_json, then each file byte for byte under its name', async () => {
    const art = Buffer.from(Array.from({ length: 4_096 }, (_, index) => index % 256));
    // Bytes that look like a boundary line and a name that would break a header, on purpose.
    const tricky = new Uint8Array(Buffer.from('\r\n--boundary--\r\n'));
    answer = {
      type: InteractionResponseType.ChannelMessageWithSource,
      data: { embeds: [{ title: 'Dark Magician', image: { url: 'attachment://46986414.jpg' } }] },
      files: [
        { name: '46986414.jpg', data: art },
        { name: 'odd "name"\r\n.bin', data: tricky },
      ],
    };
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await response.formData();
    expect(JSON.parse(form.get('payload_json') as string)).toEqual({ type: 4, data: answer.data });
    const first = form.get('files[0]') as File;
    expect(first.name).toBe('46986414.jpg');
    expect(Buffer.from(await first.arrayBuffer())).toEqual(art);
    const second = form.get('files[1]') as File;
    // Escaped on the wire as the platform's FormData escapes it, read back whole.
    expect(second.name).toBe('odd "name"\r\n.bin');
    expect(Buffer.from(await second.arrayBuffer())).toEqual(Buffer.from(tricky));
  });
});
