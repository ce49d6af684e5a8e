import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { request, type Dispatcher } from 'undici';
import type { AttachmentRef } from '../../interaction/context.js';
import { USER_AGENT } from '../../runtime/version.js';

/**
 * Reading a file a member attached (a `.ydk` deck). A URL in an interaction is data from the
 * internet: Almanac fetches only what Discord's CDN serves as attachments, only as much as the
 * caller allows, and never follows a redirect off them, so an attachment can point Almanac at no
 * other host, nor at anything else on Discord's.
 */

/** Why an attachment was not read; the command words each for the member. */
export type AttachmentProblem = 'tooLarge' | 'notDiscord' | 'unreadable';

export type AttachmentRead = { ok: true; bytes: Buffer } | { ok: false; problem: AttachmentProblem };

/** The one interface: an attachment's bytes, at most `maxBytes` of them, or why not. */
export interface AttachmentSource {
  read(attachment: AttachmentRef, maxBytes: number): Promise<AttachmentRead>;
}

/** Discord serves attachments from its CDN, and resized or proxied ones from its media host. */
const DISCORD_MEDIA_URL = 'https://media.discordapp.net';
/**
 * Where on those hosts: a message's attachments, and the files given to slash-command options. The
 * hosts serve much else (avatars, icons, emoji, stickers), none of it a member's file.
 */
const ATTACHMENT_PATHS = ['attachments/', 'ephemeral-attachments/'] as const;
const DEFAULT_TIMEOUT_MS = 5_000;
/** Discord's CDN answers directly; a short same-CDN hop (a signed URL refreshed) is all we allow. */
const MAX_REDIRECTS = 2;

export interface DiscordAttachmentsOptions {
  /** `DISCORD_CDN_URL`: attachments are read from its attachment paths or `media.discordapp.net`'s, nowhere else. */
  cdnUrl: string;
  dispatcher?: Dispatcher;
  /** The whole read, redirects included. */
  timeoutMs?: number;
}

/** Attachments read from Discord's CDN (`DISCORD_CDN_URL`, a fake in tests). */
export class DiscordAttachments implements AttachmentSource {
  private readonly hosts: URL[];
  private readonly dispatcher: Dispatcher | undefined;
  private readonly timeoutMs: number;

  constructor(options: DiscordAttachmentsOptions) {
    this.hosts = [new URL(withSlash(options.cdnUrl)), new URL(`${DISCORD_MEDIA_URL}/`)];
    this.dispatcher = options.dispatcher;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async read(attachment: AttachmentRef, maxBytes: number): Promise<AttachmentRead> {
    // Discord's declared size is checked first: an attachment over the limit is not asked for at all.
    if (!Number.isSafeInteger(attachment.size) || attachment.size < 0 || attachment.size > maxBytes) return { ok: false, problem: 'tooLarge' };
    let url = attachmentUrl(attachment.url, this.hosts);
    if (url === undefined) return { ok: false, problem: 'notDiscord' };
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      for (let redirects = 0; ; redirects++) {
        const response: Dispatcher.ResponseData = await request(url, {
          method: 'GET',
          headers: { 'user-agent': USER_AGENT },
          signal,
          ...(this.dispatcher === undefined ? {} : { dispatcher: this.dispatcher }),
        });
        if (response.statusCode >= 300 && response.statusCode < 400) {
          await response.body.dump();
          const location: unknown = response.headers.location;
          url = typeof location === 'string' && redirects < MAX_REDIRECTS ? attachmentUrl(location, this.hosts, url) : undefined;
          if (url === undefined) return { ok: false, problem: 'notDiscord' };
          continue;
        }
        if (response.statusCode !== 200) {
          await response.body.dump();
          return { ok: false, problem: 'unreadable' };
        }
        return await readAtMost(response.body, maxBytes);
      }
    } catch {
      // A timeout, a reset, a refused connection: the member is told the file could not be read.
      return { ok: false, problem: 'unreadable' };
    }
  }
}

/**
 * `text` (resolved against `base`, for a redirect) as a URL under one of the attachment paths of one
 * of `hosts` (each a base URL ending in `/`), or undefined. The path is judged as the URL parser
 * leaves it, dot segments (`..`, `%2e%2e`) resolved: what is judged is what would be asked for.
 */
export function attachmentUrl(text: string, hosts: readonly URL[], base?: URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  const on = hosts.some((host) => url.origin === host.origin && ATTACHMENT_PATHS.some((path) => url.pathname.startsWith(`${host.pathname}${path}`)));
  return on ? url : undefined;
}

/**
 * The terminal CLI's attachments: files on the operator's own disk (`--file deck.ydk`, given to it as
 * `file:` URLs), read with the same size limit.
 */
export const localAttachments: AttachmentSource = {
  async read(attachment, maxBytes) {
    let path: string;
    try {
      path = fileURLToPath(attachment.url);
      if ((await stat(path)).size > maxBytes) return { ok: false, problem: 'tooLarge' };
      const bytes = await readFile(path);
      return bytes.length > maxBytes ? { ok: false, problem: 'tooLarge' } : { ok: true, bytes };
    } catch {
      return { ok: false, problem: 'unreadable' };
    }
  },
};

/**
 * The body, stopped as soon as it passes `maxBytes`: a declared size that lies cannot make Almanac
 * read (or hold) more than the limit and one chunk.
 */
async function readAtMost(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<AttachmentRead> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      body.destroy();
      return { ok: false, problem: 'tooLarge' };
    }
    chunks.push(chunk as Buffer);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
