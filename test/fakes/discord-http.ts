import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { APIInteraction } from 'discord.js';
import nacl from 'tweetnacl';
import { parseBody, type UploadedFile } from '../helpers/http-body.js';

/**
 * Discord's side of HTTP interactions: a signing key pair made in the test, and delivery of
 * interaction payloads to the bot's real `POST /interactions` as Discord does it (Ed25519 over the
 * timestamp and the raw body). `FakeDiscord.deliverInteractionsTo` routes its exchanges through it.
 */

export interface SigningKeys {
  /** What DISCORD_PUBLIC_KEY is set to: the 32-byte public key as hex. */
  publicKeyHex: string;
  /** A detached Ed25519 signature of `message`. */
  sign(message: Buffer): Buffer;
}

/** A key pair from Node's own Ed25519. */
export function nodeSigningKeys(): SigningKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicKeyHex: rawPublicKey(publicKey).toString('hex'), sign: (message) => sign(null, message, privateKey) };
}

/** A key pair from tweetnacl, an implementation independent of Node's (and of OpenSSL). */
export function tweetnaclSigningKeys(): SigningKeys {
  const pair = nacl.sign.keyPair();
  return {
    publicKeyHex: Buffer.from(pair.publicKey).toString('hex'),
    sign: (message) => Buffer.from(nacl.sign.detached(new Uint8Array(message), pair.secretKey)),
  };
}

function rawPublicKey(key: KeyObject): Buffer {
  return Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url');
}

/** Unix seconds, as Discord writes X-Signature-Timestamp. */
export function signatureTimestamp(atMs = Date.now()): string {
  return String(Math.floor(atMs / 1000));
}

/** The headers Discord sends with a body signed by `keys` at `timestamp`. */
export function signatureHeadersFor(keys: SigningKeys, body: Buffer | string, timestamp = signatureTimestamp()): Record<string, string> {
  const signature = keys.sign(Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]));
  return { 'x-signature-ed25519': signature.toString('hex'), 'x-signature-timestamp': timestamp, 'content-type': 'application/json' };
}

/** What the bot answered an interaction request with. */
export interface EndpointResponse {
  status: number;
  contentType: string;
  /** The JSON body, or the parsed `payload_json` of a multipart one. */
  json?: unknown;
  files: UploadedFile[];
  /** The body as text when it is neither JSON nor multipart (refusals). */
  text?: string;
}

export interface InteractionsEndpoint {
  url: string;
  deliver(payload: APIInteraction): Promise<EndpointResponse>;
}

/** Reads the bot's answer: JSON, or multipart with `payload_json` and files. */
export async function readEndpointResponse(response: Response): Promise<EndpointResponse> {
  const contentType = response.headers.get('content-type') ?? '';
  const raw = Buffer.from(await response.arrayBuffer());
  if (!contentType.includes('json') && !contentType.startsWith('multipart/form-data')) {
    return { status: response.status, contentType, files: [], text: raw.toString('utf8') };
  }
  const body = await parseBody(raw, contentType);
  const payloadJson = body.fields.payload_json;
  return { status: response.status, contentType, json: payloadJson === undefined ? body.json : JSON.parse(payloadJson), files: body.files };
}

/** Signs and POSTs each payload to `url` (the bot's `/interactions`), as Discord does. */
export function signedInteractionsEndpoint(url: string, keys: SigningKeys): InteractionsEndpoint {
  return {
    url,
    async deliver(payload) {
      const body = JSON.stringify(payload);
      const response = await fetch(url, { method: 'POST', headers: signatureHeadersFor(keys, body), body });
      return readEndpointResponse(response);
    },
  };
}
