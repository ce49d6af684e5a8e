import type { IncomingMessage } from 'node:http';

/** The whole request body, or 'too_large' as soon as it is known to exceed `limit` bytes. */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return 'too_large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return 'too_large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
