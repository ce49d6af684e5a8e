import { Client, Collection, GatewayIntentBits, LimitedCollection, type CacheFactory, type ClientOptions, type RESTOptions, type User } from 'discord.js';
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
 * Messages are read from the raw dispatches (src/discord/message-events.ts): discord.js keeps none,
 * so no partials are needed for edits and deletions.
 */
const MESSAGE_INTENTS = [GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent] as const;

/** An interaction's token can edit its reply for 15 minutes: a rate limit longer than that can never be waited out. */
const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;

/** Every other manager's cache: one collection that never holds anything, shared, so an empty manager costs no map of its own. */
const NOTHING = new LimitedCollection({ maxSize: 0 });

/**
 * What discord.js caches: the guilds (their count is the fleet's and the logs'; each is a few
 * hundred bytes once its managers hold nothing) and at most 1,000 users, Almanac's own kept. It
 * would otherwise keep every channel, role, overwrite and member of every guild: 84 KB a guild of
 * a real community's size, 210 MB for a full shard (bench/guilds.ts). Almanac reads none of them:
 * interactions carry what a command needs, age restriction comes from `AgeRestrictedChannels` and
 * inline cards' permissions from `ChannelPermissions`, both fed from the raw dispatches.
 * discord.js warns at start that caching no channels, roles or overwrites is unsupported: what it
 * then cannot do (resolve `interaction.channel`, `guild.members.me`…) is what Almanac never asks.
 */
const makeCache: CacheFactory = (_managerType, _holds, manager) => {
  // The factory's return type depends on the manager in a way TypeScript cannot narrow (see discord.js's typings).
  const name: string = manager.name;
  if (name === 'GuildManager') return new Collection() as never;
  if (name === 'UserManager') return new LimitedCollection<string, User>({ maxSize: 1_000, keepOverLimit: (user) => user.id === user.client.user?.id }) as never;
  return NOTHING as never;
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
 * The Guilds intent (the dispatches that say which channels are age-restricted, and where Almanac
 * may post, come with it); the message intents only when `messages` is asked for.
 * Mentions are off globally, so nothing a user or an upstream writes can ping anyone.
 */
export function createDiscordClient(options: DiscordClientOptions): Client {
  const client = new Client({
    // Always explicit when sharding: discord.js reads SHARD_COUNT and SHARDS from the environment
    // only when these options keep their defaults, and SHARDS is not a variable Almanac validates.
    ...(options.shards ? { shards: [...options.shards.ids], shardCount: options.shards.count } : {}),
    intents: [GatewayIntentBits.Guilds, ...(options.messages === true ? MESSAGE_INTENTS : [])],
    allowedMentions: { parse: [], repliedUser: false },
    makeCache,
    rest: discordRestOptions(options.apiUrl, options.rest),
  });
  buildNoInteractionObjects(client);
  return client;
}

/** The part of discord.js's client (not in its typings) that turns each dispatch into its objects. */
interface DispatchActions {
  actions?: { InteractionCreate?: { handle?: unknown } };
}

/**
 * discord.js turns every INTERACTION_CREATE into an Interaction object (its user, member, channel,
 * options resolver…) that Almanac never reads: it reads the dispatch itself, as HTTP mode reads a
 * request (src/discord/gateway-interaction.ts). Building them was about an eighth of a cached
 * answer's CPU. discord.js has no option for it, so this client's action is replaced; a discord.js
 * that no longer has it fails the start here rather than build them unseen.
 */
function buildNoInteractionObjects(client: Client): void {
  const action = (client as unknown as DispatchActions).actions?.InteractionCreate;
  if (typeof action?.handle !== 'function') throw new Error('discord.js has no InteractionCreate action to replace (a new major version?)');
  action.handle = () => undefined;
}
