import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** Discord's own window is unspecified; requests signed more than 5 minutes from now are refused as replays. */
export const MAX_TIMESTAMP_SKEW_MS = 5 * 60_000;

const PUBLIC_KEY_HEX = /^[0-9a-f]{64}$/i;
const SIGNATURE_HEX = /^[0-9a-f]{128}$/i;
/** Unix seconds; at most 12 digits keeps the value a safe integer and the header short. */
const TIMESTAMP = /^\d{1,12}$/;

/** The application's public key (64 hex characters, from the Developer Portal) as a Node key object. */
export function ed25519PublicKey(hex: string): KeyObject {
  if (!PUBLIC_KEY_HEX.test(hex)) throw new TypeError('DISCORD_PUBLIC_KEY must be 64 hexadecimal characters');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
}

export interface SignedRequest {
  /** `X-Signature-Ed25519`: 64 bytes as hex. */
  signature: string;
  /** `X-Signature-Timestamp`: the string that is signed in front of the body. */
  timestamp: string;
}

/** The signature headers when both are present and well-formed; anything else is unsigned. */
export function signatureHeaders(headers: Record<string, string | string[] | undefined>): SignedRequest | undefined {
  const signature = headers['x-signature-ed25519'];
  const timestamp = headers['x-signature-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return undefined;
  if (!SIGNATURE_HEX.test(signature) || !TIMESTAMP.test(timestamp)) return undefined;
  return { signature, timestamp };
}

/** Whether the signed timestamp lies within `MAX_TIMESTAMP_SKEW_MS` of `nowMs`, either side. */
export function isFresh(timestamp: string, nowMs: number): boolean {
  return Math.abs(Number(timestamp) * 1000 - nowMs) <= MAX_TIMESTAMP_SKEW_MS;
}

/** Ed25519 over the timestamp followed by the raw body bytes, as Discord signs them. */
export function verifySignature(key: KeyObject, request: SignedRequest, body: Buffer): boolean {
  const message = Buffer.concat([Buffer.from(request.timestamp, 'utf8'), body]);
  return verify(null, message, key, Buffer.from(request.signature, 'hex'));
}
