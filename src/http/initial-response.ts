import type { ServerResponse } from 'node:http';
import type { InitialResponse } from './http-responder.js';

/**
 * The HTTP body Discord reads the interaction response from: JSON, or multipart/form-data with
 * `payload_json` and `files[n]` when files are attached (the platform's FormData does the encoding).
 */
async function encode(response: InitialResponse): Promise<{ contentType: string; body: Buffer }> {
  const json = JSON.stringify({ type: response.type, ...(response.data ? { data: response.data } : {}) });
  if (response.files.length === 0) return { contentType: 'application/json', body: Buffer.from(json) };
  const form = new FormData();
  form.append('payload_json', json);
  response.files.forEach((file, index) => form.append(`files[${index}]`, new Blob([file.data as Uint8Array]), file.name));
  const encoded = new Response(form);
  return { contentType: encoded.headers.get('content-type')!, body: Buffer.from(await encoded.arrayBuffer()) };
}

/** Writes the interaction response; rejects when Discord is no longer waiting for it (closed or timed out). */
export async function writeInitialResponse(res: ServerResponse, response: InitialResponse): Promise<void> {
  const { contentType, body } = await encode(response);
  if (res.destroyed || res.writableEnded) throw new Error('Discord closed the interaction request before the answer');
  await new Promise<void>((resolve, reject) => {
    res.once('error', reject);
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body, () => resolve());
  });
}
