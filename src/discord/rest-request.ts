import { STATUS_CODES } from 'node:http';
import type { RawFile, RequestData, RESTOptions, ResponseLike } from 'discord.js';
import { Headers, request } from 'undici';
import { encodeMessageUpload, encodeMultipart, type MultipartPart } from './multipart.js';

type MakeRequest = RESTOptions['makeRequest'];
type RequestBody = Parameters<MakeRequest>[1]['body'];

/**
 * How discord.js's REST sends (its `makeRequest`), in both modes: through undici's `request`, which
 * builds no WHATWG Request, Response or stream around each call. Through `fetch`, a cached
 * interaction allocated a fifth more in all (bench `cards`, per 1,000 cached interactions).
 *
 * A message with files goes through discord.js's REST already encoded (`messageRequest`): given the
 * files, discord.js wraps each in a Blob in its FormData and sniffs its type, which is then read back
 * into one buffer here (undici 7, ours, which becomes the process-wide dispatcher once imported,
 * cannot read the FormData of Node's built-in undici: "action is not a function").
 */
export const sendDiscordRequest: MakeRequest = async (url, init) => {
  const { body, contentType } = await encodedBody(init.body);
  const headers = { ...(init.headers as Record<string, string> | undefined), ...(contentType === undefined ? {} : { 'content-type': contentType }) };
  const response = await request(url, { method: (init.method ?? 'GET') as 'GET', headers, body, signal: init.signal ?? null });
  const { statusCode } = response;
  return {
    body: response.body,
    arrayBuffer: () => response.body.arrayBuffer(),
    json: () => response.body.json(),
    text: () => response.body.text(),
    get bodyUsed() {
      return response.body.bodyUsed;
    },
    headers: headersOf(response.headers),
    status: statusCode,
    statusText: STATUS_CODES[statusCode] ?? '',
    ok: statusCode >= 200 && statusCode < 300,
  } as ResponseLike;
};

/**
 * discord.js REST's request data for a message: its JSON, or with files the multipart body Discord
 * reads, passed through as it is (`passThroughBody`).
 */
export function messageRequest(body: object, files: readonly RawFile[]): RequestData {
  if (files.length === 0) return { body };
  const upload = encodeMessageUpload(JSON.stringify(body), files);
  return { body: upload.body, passThroughBody: true, headers: { 'Content-Type': upload.contentType } };
}

/**
 * discord.js sends JSON as a string, a message with files as `messageRequest` encoded it, and files
 * given to its own methods (none of Almanac's writers) as FormData, encoded here as one buffer.
 */
async function encodedBody(body: RequestBody): Promise<{ body: string | Uint8Array | null; contentType?: string }> {
  if (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array) return { body: body ?? null };
  if (body instanceof FormData) return encodeMultipart(await multipartParts(body));
  throw new TypeError(`sendDiscordRequest: a ${Object.prototype.toString.call(body)} body is not one discord.js sends here`);
}

async function multipartParts(form: FormData): Promise<MultipartPart[]> {
  const parts: MultipartPart[] = [];
  for (const [name, value] of form) {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, filename: value.name, data: new Uint8Array(await value.arrayBuffer()), contentType: value.type });
  }
  return parts;
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}
