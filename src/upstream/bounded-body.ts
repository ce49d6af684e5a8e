/**
 * Reads a response body into one buffer as it arrives, within a size limit. Collecting the chunks
 * and joining them at the end (`Buffer.concat`) held the event loop 19–65 ms for a 20 MB card
 * database: one allocation and copy of the whole body in a single turn. Here each chunk is copied
 * once, as it comes, into a resizable ArrayBuffer that grows in place (V8 reserves `maxBytes` of
 * address space and commits pages as it grows), so no turn copies more than a chunk.
 */

/** First capacity when the body's length is not announced (or not believable). */
const INITIAL_BYTES = 64 * 1024;

export interface BodyLimits {
  /** Largest body accepted; reading stops with `tooLarge()`'s error as soon as more arrives. */
  maxBytes: number;
  /** The announced length (Content-Length), a first capacity only: the bytes that arrive count. */
  announcedBytes?: number;
  tooLarge(): Error;
}

/**
 * The body's bytes in a Buffer over its own memory (never Buffer's shared pool), so it can be moved
 * to a worker thread. `onChunk` hears the bytes received so far after each chunk.
 */
export async function readBoundedBody(body: AsyncIterable<Uint8Array>, limits: BodyLimits, onChunk?: (received: number) => void): Promise<Buffer> {
  const { maxBytes, announcedBytes } = limits;
  const announced = announcedBytes !== undefined && Number.isSafeInteger(announcedBytes) && announcedBytes > 0 && announcedBytes <= maxBytes;
  const memory = new ArrayBuffer(announced ? announcedBytes : Math.min(INITIAL_BYTES, maxBytes), { maxByteLength: maxBytes });
  let bytes = new Uint8Array(memory);
  let received = 0;
  for await (const chunk of body) {
    const needed = received + chunk.byteLength;
    // Leaving the loop by a throw destroys the stream (the rest of the body is not read).
    if (needed > maxBytes) throw limits.tooLarge();
    if (needed > memory.byteLength) {
      // Doubling: a body of n bytes without a length resizes about log2(n / 64 KiB) times.
      memory.resize(Math.min(maxBytes, Math.max(needed, memory.byteLength * 2)));
      bytes = new Uint8Array(memory);
    }
    bytes.set(chunk, received);
    received = needed;
    onChunk?.(received);
  }
  // The buffer is the body's alone, so a worker can take it whole. Exactly filled, the memory is the
  // body's already; otherwise the body is copied out: shrinking a resizable buffer keeps the pages it
  // had (a 2 KB image read without a length kept its first 64 KiB, and a cache counting 2 KB held 32
  // times that).
  if (received === memory.byteLength) return Buffer.from(memory);
  const exact = new Uint8Array(received);
  exact.set(bytes.subarray(0, received));
  return Buffer.from(exact.buffer);
}
