import type { IncomingMessage } from 'node:http';
import { getMultipartBoundary, parseMultipart as multipartParts } from '@remix-run/multipart-parser';

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
 * Reads and parses a request body for a fake server: JSON, or `multipart/form-data`. Any other
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
  if (contentType.startsWith('multipart/form-data')) return parseMultipartBody(raw, contentType);
  if (contentType.includes('json')) return { json: JSON.parse(raw.toString('utf8')), fields: {}, files: [] };
  return { fields: {}, files: [] };
}

/**
 * Larger than anything Discord accepts, so that the fake's own checks, not the parser, refuse a
 * body that is too big.
 */
const MAX_PART_BYTES = 256 * 1024 * 1024;

/**
 * Parsed in place over the whole body: the platform's `Response.formData()` made a Blob, a File and
 * a stream of each part, 150 µs of CPU for a reply with one card's art, where this takes 20 µs. The
 * bench's load generator (the fake Discord) parses one such reply per cached card interaction.
 * The parser is patched (patches/) to read a header line whole when a name holds U+2028 or U+2029.
 */
function parseMultipartBody(raw: Buffer, contentType: string): ParsedBody {
  const boundary = getMultipartBoundary(contentType);
  if (boundary === null) throw new Error(`multipart body without a boundary: ${contentType}`);
  // No prototype: a part named `__proto__` is a field like any other.
  const parsed: ParsedBody = { fields: Object.create(null) as Record<string, string>, files: [] };
  for (const part of multipartParts(raw, { boundary, maxFileSize: MAX_PART_BYTES, maxTotalSize: MAX_PART_BYTES })) {
    const disposition = part.headers['content-disposition'] ?? '';
    const field = quotedParameter(disposition, NAME) ?? '';
    const filename = quotedParameter(disposition, FILENAME);
    if (filename === undefined) {
      parsed.fields[field] = part.text;
    } else {
      const bytes = part.bytes;
      parsed.files.push({ field, name: filename, contentType: part.mediaType ?? '', data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    }
  }
  return parsed;
}

const NAME = /(?:^|;)\s*name="([^"]*)"/;
const FILENAME = /;\s*filename="([^"]*)"/;

/**
 * A `Content-Disposition` parameter read as WHATWG's FormData parser reads it: verbatim between its
 * quotes (the parser's own reading trims a name of spaces), with the escapes a FormData writer uses
 * (src/discord/multipart.ts) undone.
 */
function quotedParameter(disposition: string, parameter: RegExp): string | undefined {
  const quoted = parameter.exec(disposition)?.[1];
  return quoted?.replaceAll('%0A', '\n').replaceAll('%0D', '\r').replaceAll('%22', '"');
}
