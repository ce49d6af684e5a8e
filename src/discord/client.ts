import { Client, GatewayIntentBits, Options, type ClientOptions, type RESTOptions } from 'discord.js';
import { sendDiscordRequest } from './rest-request.js';
import type { ShardAssignment } from './shards.js';

interface DiscordClientOptions {
  apiUrl: string;
  /** The gateway shards to run; discord.js's default (the only shard) when omitted. */
  shards?: ShardAssignment;
  /** Extra REST options; tests lower retries and timeouts. */
  rest?: ClientOptions['rest'];
  /** Receive messages and their text (`MESSAGE_SEARCH`): adds the privileged Message Content intent. */
  messages?: boolean;
}

/**
 * What `MESSAGE_SEARCH=true` adds: messages in servers and DMs, with their text. Message Content is
 * privileged: switched on in the Developer Portal, else Discord closes the gateway with 4014.
 * Messages are read from the raw dispatches (src/discord/message-events.ts): discord.js keeps none
 * (`MessageManager: 0`), so no partials are needed for edits and deletions.
 */
const MESSAGE_INTENTS = [GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent] as const;

/** An interaction's token can edit its reply for 15 minutes: a rate limit longer than that can never be waited out. */
const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;

/**
 * discord.js keeps every user, member and message an interaction brings, without limit (≈600 B per
 * new user, measured in bench/). Almanac reads none of them back: it only needs channels (from the
 * Guilds intent, for the age-restricted flag) and its own user and member.
 */
const BOUNDED_CACHES: Parameters<typeof Options.cacheWithLimits>[0] = {
  MessageManager: 0,
  UserManager: { maxSize: 1_000, keepOverLimit: (user) => user.id === user.client.user?.id },
  GuildMemberManager: { maxSize: 200, keepOverLimit: (member) => member.id === member.client.user?.id },
};

/**
 * REST settings shared by the gateway client and the HTTP mode's webhook writer: the same sending
 * (`sendDiscordRequest`) and rate-limit handling whichever mode runs.
 */
export function discordRestOptions(apiUrl: string, extra?: Partial<RESTOptions>): Partial<RESTOptions> {
  return {
    api: apiUrl,
    makeRequest: sendDiscordRequest,
    // Shorter waits on interaction routes are retried (the token may still be good); this one fails at once.
    rejectOnRateLimit: (limit) =>
      (limit.route.startsWith('/interactions/') || limit.route.startsWith('/webhooks/')) && limit.retryAfter > INTERACTION_TOKEN_LIFETIME_MS,
    ...extra,
  };
}

/**
 * The Guilds intent (channel flags for NSFW gating, and the channels, roles and overwrites that say
 * where Almanac may post, come with it); the message intents only when `messages` is asked for.
 * Mentions are off globally, so nothing a user or an upstream writes can ping anyone.
 */
export function createDiscordClient(options: DiscordClientOptions): Client {
  return new Client({
    // Always explicit when sharding: discord.js reads SHARD_COUNT and SHARDS from the environment
    // only when these options keep their defaults, and SHARDS is not a variable Almanac validates.
    ...(options.shards ? { shards: [...options.shards.ids], shardCount: options.shards.count } : {}),
    intents: [GatewayIntentBits.Guilds, ...(options.messages === true ? MESSAGE_INTENTS : [])],
    allowedMentions: { parse: [], repliedUser: false },
    makeCache: Options.cacheWithLimits(BOUNDED_CACHES),
    rest: discordRestOptions(options.apiUrl, options.rest),
  });
}
