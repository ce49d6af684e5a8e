import type { ServerResponse } from 'node:http';
import { encodeMessageUpload } from '../discord/multipart.js';
import { initialResponseJson, type InitialResponse } from '../discord/responder.js';

/** The HTTP body Discord reads the interaction response from: JSON, or multipart/form-data when files are attached. */
function encode(response: InitialResponse): { contentType: string; body: Buffer } {
  const json = JSON.stringify(initialResponseJson(response));
  if (response.files.length === 0) return { contentType: 'application/json', body: Buffer.from(json) };
  return encodeMessageUpload(json, response.files);
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
