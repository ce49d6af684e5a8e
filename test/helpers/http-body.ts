import type { IncomingMessage } from 'node:http';

export interface UploadedFile {
  /** The form field the file came in, e.g. `files[0]`. */
  field: string;
  name: string;
  contentType: string;
  data: Buffer;
}

export interface ParsedBody {
  /** The parsed body of an `application/json` request. */
  json?: unknown;
  /** The text fields of a `multipart/form-data` request. */
  fields: Record<string, string>;
  files: UploadedFile[];
}

/**
 * Reads and parses a request body for a fake server: JSON, or `multipart/form-data` (parsed by the
 * fetch `Response` implementation built into Node, so the fake needs no parser of its own). Any other
 * content type is read and ignored.
 */
export async function readRequestBody(request: IncomingMessage): Promise<ParsedBody> {
  // Events rather than `for await`: the async iterator cost the bench's load generator 1 % of its time.
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once('error', reject);
    // After 'end' this is a no-op; before it, the client went away mid-body.
    request.once('close', () => reject(new Error('the request was aborted before its body ended')));
  });
  return parseBody(raw, request.headers['content-type'] ?? '');
}

/** Parses a raw body of the given content type (a request's, or a response's read by a fake). */
export async function parseBody(raw: Buffer, contentType: string): Promise<ParsedBody> {
  if (raw.length === 0) return { fields: {}, files: [] };
  if (contentType.startsWith('multipart/form-data')) return parseMultipart(raw, contentType);
  if (contentType.includes('json')) return { json: JSON.parse(raw.toString('utf8')), fields: {}, files: [] };
  return { fields: {}, files: [] };
}

async function parseMultipart(raw: Buffer, contentType: string): Promise<ParsedBody> {
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const parsed: ParsedBody = { fields: {}, files: [] };
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      parsed.fields[field] = value;
    } else {
      parsed.files.push({
        field,
        name: value.name,
        contentType: value.type,
        data: Buffer.from(await value.arrayBuffer()),
      });
    }
  }
  return parsed;
}
