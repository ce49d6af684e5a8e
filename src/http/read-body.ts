import type { IncomingMessage } from 'node:http';

/**
 * The whole request body, or 'too_large' as soon as it is known to exceed `limit` bytes. Rejects
 * when the request is aborted or cut before its end. Plain listeners rather than an async
 * iterator: this runs for every interaction, and the iterator's promise per chunk is a cost of its
 * own.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too_large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish();
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      finish();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      finish();
      reject(error);
    };
    const onClose = () => {
      finish();
      reject(new Error('the request was closed before its body ended'));
    };
    const finish = () => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
