import { encodeMessageUpload } from '../discord/multipart.js';
import type { MessagePayload } from '../interaction/reply.js';

/** Why Discord refused a channel: it is gone, or Almanac may not see or post in it. */
export type RefusalReason = 'unknown-channel' | 'missing-access';

export type PostOutcome =
  | { ok: true; messageId: string }
  /** Discord refused the channel (403, 404, Unknown Channel, Missing Access). */
  | { ok: false; refused: RefusalReason; status: number }
  /** Anything else: Discord's outage, a rate limit, the network. */
  | { ok: false; refused?: undefined; status: number | null; error: string };

/** How the scheduler posts: one message in a channel, deduplicated by Discord on `nonce`. */
export interface ChannelPoster {
  post(channelId: string, message: MessagePayload, nonce: string): Promise<PostOutcome>;
}

/** Discord's JSON error codes that say the channel is gone or closed to the bot. */
const UNKNOWN_CHANNEL = 10003;
const MISSING_ACCESS = 50001;
const MISSING_PERMISSIONS = 50013;

/** A channel the Discord answer says is refused, or undefined for any other failure. */
export function refusalOf(status: number, code: number | undefined): RefusalReason | undefined {
  if (code === UNKNOWN_CHANNEL) return 'unknown-channel';
  if (code === MISSING_ACCESS || code === MISSING_PERMISSIONS) return 'missing-access';
  if (status === 404) return 'unknown-channel';
  return status === 403 ? 'missing-access' : undefined;
}

const POST_TIMEOUT_MS = 15_000;
/** Tries of one post rate limited by Discord, and the longest wait for it (well inside the claim's lease). */
const MAX_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * Posts through Discord's REST API with the bot token, in both modes (the gateway's connection is
 * not needed for it). `enforce_nonce` makes a retry after a crash return the first message instead
 * of posting a second one, within Discord's nonce window. Mentions are never pinged: the content
 * comes from card text and wallpaper tags.
 */
export class RestChannelPoster implements ChannelPoster {
  constructor(private readonly options: { apiUrl: string; token: string; timeoutMs?: number }) {}

  async post(channelId: string, message: MessagePayload, nonce: string): Promise<PostOutcome> {
    const files = message.files ?? [];
    const json = JSON.stringify({
      content: message.content,
      embeds: message.embeds,
      components: message.components,
      ...(files.length > 0 ? { attachments: files.map((file, index) => ({ id: index, filename: file.name, description: file.description })) } : {}),
      nonce,
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
    });
    // With files (a new set's image), the multipart body Discord reads: the JSON, then each file.
    const { contentType, body } = files.length > 0 ? encodeMessageUpload(json, files) : { contentType: 'application/json', body: json };
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${this.options.apiUrl}/v10/channels/${encodeURIComponent(channelId)}/messages`, {
          method: 'POST',
          headers: { authorization: `Bot ${this.options.token}`, 'content-type': contentType },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? POST_TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, status: null, error: (error as Error).name };
      }
      const json = (await response.json().catch(() => undefined)) as { id?: unknown; code?: unknown; retry_after?: unknown } | undefined;
      if (response.ok && typeof json?.id === 'string') return { ok: true, messageId: json.id };
      // Rate limited (many posts due at once): wait as Discord says and send the same post again;
      // the nonce makes a retry safe even if the first one got through.
      const retryAfterMs = typeof json?.retry_after === 'number' ? json.retry_after * 1000 : Number(response.headers.get('retry-after') ?? 1) * 1000;
      if (response.status === 429 && attempt < MAX_ATTEMPTS && retryAfterMs <= MAX_RETRY_WAIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
        continue;
      }
      const code = typeof json?.code === 'number' ? json.code : undefined;
      const refused = response.ok ? undefined : refusalOf(response.status, code);
      return refused ? { ok: false, refused, status: response.status } : { ok: false, status: response.status, error: `HTTP ${response.status}${code === undefined ? '' : ` code ${code}`}` };
    }
  }
}
