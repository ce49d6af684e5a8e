/**
 * The floor of the HTTP section: a bare `node:http` interactions endpoint in its own process, doing
 * only what no endpoint can skip — the same Ed25519 check as `src/http/signature.ts`, `JSON.parse` of
 * the body — and answering one fixed one-embed message. Reports its port over IPC; exits when the
 * bench disconnects. Spawned by `bench/http-mode.ts` with DISCORD_PUBLIC_KEY set.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ed25519PublicKey, isFresh, signatureHeaders, verifySignature } from '../src/http/signature.js';

const key = ed25519PublicKey(process.env.DISCORD_PUBLIC_KEY ?? '');
const answer = Buffer.from(
  JSON.stringify({ type: 4, data: { embeds: [{ title: 'Almanac', description: 'A fixed answer: the floor of an interactions endpoint.', color: 0x5865f2 }] } }),
);

const server = createServer((req, res) => {
  const refuse = (status: number) => res.writeHead(status, { connection: 'close' }).end();
  const signed = signatureHeaders(req.headers);
  if (!signed) return refuse(401);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (!isFresh(signed.timestamp, Date.now()) || !verifySignature(key, signed, body)) return refuse(401);
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return refuse(400);
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.once('disconnect', () => process.exit(0));
