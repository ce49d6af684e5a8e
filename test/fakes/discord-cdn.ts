import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIAttachment } from 'discord.js';

/**
 * The fake Discord's attachment CDN (`DISCORD_CDN_URL` points at the fake's base URL): files a test
 * attaches to an interaction, served under `/attachments/<channel>/<id>/<name>` like
 * cdn.discordapp.com serves them, with the ways a hostile or broken file can differ from what the
 * interaction declared (a size that lies, a redirect elsewhere, a server that never answers).
 */
export interface CdnFile {
  name: string;
  data: Buffer;
  /** The size the interaction declares (default: the real one). */
  declaredSize?: number;
  /** Answer 302 to this URL instead of serving the file. */
  redirectTo?: string;
}

/** One request the CDN answered, and how many bytes of the body the client took before it closed. */
export interface CdnDownload {
  path: string;
  bytesSent: number;
}

const PREFIX = '/attachments/';
/** Bodies go out in chunks of this size, each after the client took the last (no buffering ahead). */
const CHUNK_BYTES = 16 * 1024;

let nextId = 1;

export class FakeDiscordCdn {
  readonly downloads: CdnDownload[] = [];
  private readonly files = new Map<string, CdnFile>();

  constructor(private readonly baseUrl: () => string) {}

  /** Stores `file` and returns the attachment object Discord would put in the interaction. */
  attachment(channelId: string, file: CdnFile): APIAttachment {
    const id = `9${String(nextId++).padStart(17, '0')}`;
    const path = `${PREFIX}${channelId}/${id}/${encodeURIComponent(file.name)}`;
    this.files.set(path, file);
    const url = `${this.baseUrl()}${path}`;
    return { id, filename: file.name, size: file.declaredSize ?? file.data.length, url, proxy_url: url };
  }

  handles(request: IncomingMessage): boolean {
    return request.method === 'GET' && (request.url ?? '').startsWith(PREFIX);
  }

  serve(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const file = this.files.get(path);
    const download: CdnDownload = { path, bytesSent: 0 };
    this.downloads.push(download);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    if (file.redirectTo !== undefined) {
      response.writeHead(302, { location: file.redirectTo }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    const send = (offset: number): void => {
      if (offset >= file.data.length || response.destroyed) {
        response.end();
        return;
      }
      const chunk = file.data.subarray(offset, offset + CHUNK_BYTES);
      download.bytesSent += chunk.length;
      // The next chunk only once the client has taken this one: bytesSent is what it read, give or take a socket buffer.
      response.write(chunk, () => send(offset + chunk.length));
    };
    send(0);
  }
}
