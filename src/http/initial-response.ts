import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RawFile } from 'discord.js';
import type { InitialResponse } from './http-responder.js';

/**
 * A multipart part's name or file name, escaped as the platform's FormData writes it (WHATWG): a
 * quote or a line break would end the header.
 */
function quoted(name: string): string {
  return name.replaceAll('\n', '%0A').replaceAll('\r', '%0D').replaceAll('"', '%22');
}

/**
 * multipart/form-data with `payload_json` and `files[n]`, built as one buffer: the platform's
 * FormData and Response took about 400 µs for one card's art (streams, blobs, copies), this 20.
 * The boundary is random, so no file can hold it by chance.
 */
function multipart(json: string, files: InitialResponse['files']): { contentType: string; body: Buffer } {
  const boundary = `----almanac${randomBytes(16).toString('hex')}`;
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n${json}\r\n`)];
  files.forEach((file, index) => {
    const header = `--${boundary}\r\nContent-Disposition: form-data; name="files[${index}]"; filename="${quoted(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    parts.push(Buffer.from(header), toBuffer(file.data), Buffer.from('\r\n'));
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

function toBuffer(data: RawFile['data']): Buffer {
  if (data instanceof Uint8Array) return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(String(data));
}

/** The HTTP body Discord reads the interaction response from: JSON, or multipart/form-data when files are attached. */
function encode(response: InitialResponse): { contentType: string; body: Buffer } {
  const json = JSON.stringify({ type: response.type, ...(response.data ? { data: response.data } : {}) });
  if (response.files.length === 0) return { contentType: 'application/json', body: Buffer.from(json) };
  return multipart(json, response.files);
}

/** Writes the interaction response; rejects when Discord is no longer waiting for it (closed or timed out). */
export async function writeInitialResponse(res: ServerResponse, response: InitialResponse): Promise<void> {
  const { contentType, body } = encode(response);
  if (res.destroyed || res.writableEnded) throw new Error('Discord closed the interaction request before the answer');
  await new Promise<void>((resolve, reject) => {
    res.once('error', reject);
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body, () => resolve());
  });
}
