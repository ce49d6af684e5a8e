import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  ComponentType,
  GatewayDispatchEvents,
  InteractionContextType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  MessageType,
  type APIApplicationCommand,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
  type APIAttachment,
  type APIAuthorizingIntegrationOwnersMap,
  type APICommandAutocompleteInteractionResponseCallbackData,
  type APIEmbed,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIInteractionResponseCallbackData,
  type APIMessage,
  type APIMessageTopLevelComponent,
  type APIUser,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { readRequestBody, type UploadedFile } from '../helpers/http-body.js';
import { communityGuildCreate } from './discord-community-guild.js';
import { componentPayloadError } from './discord-components.js';
import { FakeDiscordCdn, type CdnDownload, type CdnFile } from './discord-cdn.js';
import { FakeGateway, type GatewaySessionInfo } from './discord-gateway.js';
import {
  APPLICATION_ID,
  BOT_USER,
  DEFAULT_LOCALE,
  DEFAULT_USER,
  DM_APP_PERMISSIONS,
  FOREIGN_CHANNEL_IDS,
  FOREIGN_GUILD_ID,
  foreignGuildChannel,
  GROUP_DM_FRIEND,
  GUILD_APP_PERMISSIONS,
  isUserInstallChannel,
  MEMBER_PERMISSIONS,
  USER_INSTALL_APP_PERMISSIONS,
  type UserInstallChannelName,
  fakeGuilds,
  guildChannels,
  guildMember,
  type FakeGuild,
} from './discord-guilds.js';
import type { InteractionsEndpoint } from './discord-http.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';

export type { UploadedFile } from '../helpers/http-body.js';
export type { GatewaySessionInfo } from './discord-gateway.js';
export type { CdnDownload, CdnFile } from './discord-cdn.js';
export { shardOf, type FakeGuild } from './discord-guilds.js';

/**
 * A local fake of Discord (REST v10 and gateway v10) that the real discord.js client logs in to.
 * Tests dispatch complete INTERACTION_CREATE payloads through it and read back what the bot answered.
 * Point the client at it with `rest: { api: fake.apiUrl }`; `GET /gateway/bot` sends the client on
 * to the fake gateway.
 */

export interface FakeDiscordOptions {
  /** The expected bot token. REST calls that need bot auth and carry another token get 401, and an
   * IDENTIFY with another token is closed with 4004. Any token is accepted when omitted. */
  token?: string;
  /** The interval announced in HELLO. Discord's is 41 250 ms; lower it to test zombie-connection
   * detection after `stopHeartbeatAcks()`. */
  heartbeatIntervalMs?: number;
  /** How long the bot has to acknowledge an interaction before the callback gets 404 Unknown
   * interaction, as on Discord. */
  callbackDeadlineMs?: number;
  /** Command definitions known from the start, as if already registered. Registered definitions let
   * the fake send each option with its declared type (an integer-valued `number` option must arrive
   * as type 10, or discord.js's `getNumber()` throws); without one the type is guessed from the value. */
  commands?: RESTPostAPIApplicationCommandsJSONBody[];
  /** How many guilds the bot is in (default 1); `fake.guilds` lists them. Consecutive guilds fall on
   * consecutive shards: guild i is on shard `i % shard_count` when every id is below the count. */
  guilds?: number;
  /** What each guild holds: the test guild's two channels and threads (default), or also a real
   * community's channels and roles (`communityGuildCreate`), for what a guild costs in memory. */
  guildShape?: 'test' | 'community';
  /** The shard count `GET /gateway/bot` recommends (default 1). The fake serves any count a client
   * IDENTIFYs with: each session gets the guilds of its shard. */
  shardCount?: number;
  /** `session_start_limit.max_concurrency` (default 1, as for most bots): how many shards may
   * IDENTIFY together in each 5 s window. discord.js waits 5 s between the others. */
  maxConcurrency?: number;
  /** The clock `RecordedCall.at` reads (default `Date.now`): a test that runs the app on its own
   * clock sees when each request arrived by that clock. */
  now?: () => number;
}

export interface RecordedCall {
  method: string;
  /** Decoded path without the `/api/v10` prefix, e.g. `/webhooks/1/abc/messages/@original`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The JSON body, or the parsed `payload_json` field of a multipart body. */
  json?: unknown;
  /** The files of a multipart body. */
  files?: UploadedFile[];
  /** When the request arrived (epoch ms, by the `now` option's clock). */
  at: number;
  /** When the request arrived, as `performance.now()`: sub-millisecond, for latency measurements. */
  receivedAt: number;
  /** The status the fake answered with. */
  status: number;
}

/** A canned response for `respondWith`, e.g. a 429 with `retry-after`. */
export interface InjectedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type FakeUser = APIUser;
export type FakeMessage = APIMessage;
/**
 * Where an interaction happens. `foreign*` channels belong to a server Almanac's bot is not in (only
 * a user install reaches it, and discord.js has no guild or channel cached); `groupDm` is a group
 * DM among users, also reached only through a user install.
 */
export type FakeChannelName = 'normal' | 'ageRestricted' | 'thread' | 'normalThread' | 'dm' | UserInstallChannelName;

export type InteractionCallbackData = APIInteractionResponseCallbackData &
  Partial<APICommandAutocompleteInteractionResponseCallbackData>;

/** The acknowledgement the bot POSTed to `/interactions/:id/:token/callback`. */
export interface InteractionCallback {
  type: InteractionResponseType;
  data?: InteractionCallbackData;
  files: UploadedFile[];
}

/** One PATCH of a webhook message or one follow-up POST, with the message as the fake stored it. */
export interface MessageWrite {
  call: RecordedCall;
  /** The message after this write: what the fake answered. */
  message: FakeMessage;
  files: UploadedFile[];
}

/** The last visible state of an interaction's reply. Pass it as `message` to `button()`/`select()`. */
export interface FinalMessage extends FakeMessage {
  ephemeral: boolean;
  /** The files uploaded with the write that produced this state. */
  files: UploadedFile[];
}

export interface InteractionExchange {
  id: string;
  token: string;
  /** The INTERACTION_CREATE payload as dispatched. */
  payload: APIInteraction;
  /** The first acknowledgement Discord accepted (a 429 the fake injected does not count). */
  callback(timeoutMs?: number): Promise<InteractionCallback>;
  /**
   * `performance.now()` when INTERACTION_CREATE was dispatched and when the accepted acknowledgement
   * arrived (undefined until then): what the benchmarks measure as interaction latency.
   */
  timing(): { dispatchedAt: number; acknowledgedAt: number | undefined };
  /** The current state of `@original`: undefined before the acknowledgement and once deleted. */
  readonly original?: FakeMessage;
  /** Accepted edits of `@original`, in order. */
  edits(): MessageWrite[];
  waitForEdit(predicate?: (edit: MessageWrite) => boolean, timeoutMs?: number): Promise<MessageWrite>;
  /** Accepted follow-up messages, in order. */
  followUps(): MessageWrite[];
  waitForFollowUp(predicate?: (followUp: MessageWrite) => boolean, timeoutMs?: number): Promise<MessageWrite>;
  /**
   * The callback's message for type 4/7, or the first `@original` edit after a type 5/6 defer; once
   * `@original` is deleted without an edit (a private answer after a public placeholder), or after a
   * type 6 defer (a press answered by a new message), the first follow-up.
   */
  final(timeoutMs?: number): Promise<FinalMessage>;
}

export type OptionValue = string | number | boolean;

/** Who starts an interaction and where; defaults: a plain member in the normal text channel. */
export interface InteractionOrigin {
  user?: Partial<FakeUser>;
  channel?: FakeChannelName;
  /** The invoking user's client locale. */
  locale?: string;
  /** The bot's permissions in the channel, as Discord computed them. */
  appPermissions?: bigint;
  /** The invoking member's permissions in a server (default: a plain member's). */
  memberPermissions?: bigint;
  /** The guild the interaction comes from, one of `fake.guilds` (default the first); not for DMs or user-install channels. */
  guildId?: string;
  /**
   * Which install the command came through in the bot's server or DM (default `guild`); the
   * `foreign*` channels and `groupDm` are always reached through the user's install.
   */
  install?: 'guild' | 'user';
}

export interface ChatInputInput extends InteractionOrigin {
  name: string;
  subcommand?: string;
  options?: Record<string, OptionValue>;
  /** Attachment options: files from `fake.attachment(…)`, sent as ids with `resolved.attachments`. */
  attachments?: Record<string, APIAttachment>;
}

export interface AutocompleteInput extends InteractionOrigin {
  name: string;
  subcommand?: string;
  /** What the user typed so far; options still empty may be missing, as on Discord. */
  options: Record<string, OptionValue>;
  /** The option the user is typing in. */
  focused: string;
}

export interface ButtonInput extends InteractionOrigin {
  customId: string;
  /** The message carrying the button, e.g. an earlier exchange's `final()`. */
  message: FakeMessage;
}

export interface SelectInput extends ButtonInput {
  values: string[];
}

export interface MessageContextInput extends InteractionOrigin {
  name: string;
  targetContent: string;
  /** The target message's attachments (from `fake.attachment(…)`). */
  targetAttachments?: APIAttachment[];
}

/** A message someone writes, dispatched as MESSAGE_CREATE (the bot sees it with the message intents). */
export interface UserMessageInput {
  content: string;
  /** Where (default the first guild's normal channel); `dm` is the author's DM with the bot. */
  channel?: 'normal' | 'ageRestricted' | 'normalThread' | 'dm';
  /** Any other channel of the first guild, e.g. one a test created with CHANNEL_CREATE. */
  channelId?: string;
  author?: Partial<FakeUser>;
  /** Sent through this webhook (its author is then the webhook's). */
  webhookId?: string;
}

export interface FakeDiscord {
  /** The `rest.api` option for discord.js; requests then go to `${apiUrl}/v10/...`. */
  apiUrl: string;
  applicationId: string;
  botUserId: string;
  /** Every guild the bot is in (see the `guilds` option); the first is `guildId`. */
  guilds: readonly FakeGuild[];
  /** The first guild and its channels, where interactions come from by default. */
  guildId: string;
  channels: FakeGuild['channels'];
  /** Every REST request, in arrival order, including faults and 404s (while history is kept). */
  calls: RecordedCall[];
  /**
   * On by default. Off (the bench's throughput), nothing answered is kept: requests are not
   * recorded in `calls`, an interaction is forgotten once acknowledged without a deferral (a later
   * edit of its reply is an Unknown Webhook), and a dispatch is not kept for a RESUME to replay.
   * What the load creates then dies young instead of being copied by every young-generation
   * collection of the load generator.
   */
  keepHistory(keep: boolean): void;
  identifyCount: number;
  resumeCount: number;
  /** Resolves once a client has IDENTIFYed and received READY + GUILD_CREATE. */
  ready(): Promise<void>;
  /** Resolves when a client session is connected right now (after READY or RESUMED). */
  connected(timeoutMs?: number): Promise<void>;
  /** Every gateway session so far: its shard, whether it is connected, and the guilds READY listed. */
  gatewaySessions(): GatewaySessionInfo[];
  chatInput(input: ChatInputInput): Promise<InteractionExchange>;
  autocomplete(input: AutocompleteInput): Promise<InteractionExchange>;
  button(input: ButtonInput): Promise<InteractionExchange>;
  select(input: SelectInput): Promise<InteractionExchange>;
  messageContext(input: MessageContextInput): Promise<InteractionExchange>;
  /** The base URL of the fake's attachment CDN: what `DISCORD_CDN_URL` is set to. */
  cdnUrl: string;
  /** A file on the fake CDN, as the attachment object an interaction carries. */
  attachment(file: CdnFile): APIAttachment;
  /** Every request the CDN answered, with the body bytes the client took. */
  cdnDownloads: readonly CdnDownload[];
  /** Dispatches MESSAGE_CREATE for a message a user wrote, on its guild's shard; returns it as sent. */
  userMessage(input: UserMessageInput): FakeMessage;
  /** Dispatches MESSAGE_UPDATE: `message` with new text; returns the message as sent. */
  editUserMessage(message: FakeMessage, content: string): FakeMessage;
  /** Dispatches MESSAGE_DELETE for `message`. */
  deleteUserMessage(message: FakeMessage): void;
  /** Messages the bot posted in channels (`POST /channels/:id/messages`), in order. */
  channelPosts(): MessageWrite[];
  /** Edits the bot made of its channel messages (`PATCH /channels/:id/messages/:id`), in order. */
  channelEdits(): MessageWrite[];
  /** A message the bot posted in a channel, as it is now; undefined once deleted (or never posted). */
  channelMessage(id: string): FakeMessage | undefined;
  /**
   * From now on a post in `channelId` is refused as Discord refuses it: `deleted` (404, Unknown
   * Channel) or `closed` (403, Missing Access); `open` lets it through again.
   */
  setChannelAccess(channelId: string, access: 'open' | 'deleted' | 'closed'): void;
  /** Resolves with `probe()`'s first defined value, re-checked after every request and dispatch. */
  waitUntil<T>(probe: () => T | undefined, timeoutMs?: number): Promise<T>;
  /** Sends a dispatch on the current session (kept for replay on RESUME when no socket is open). */
  dispatch(eventName: string, data: unknown): void;
  /** Closes the client's socket: 4000 (or most 4xxx) lets it RESUME, 1000 makes it re-IDENTIFY
   * (throttled 5 s by discord.js), 4004 ends the session for good. */
  closeSocket(code: number): void;
  /** Stops acknowledging heartbeats on the current socket, so the client declares it a zombie and
   * resumes on a new one (acknowledged again). */
  stopHeartbeatAcks(): void;
  /**
   * HTTP mode: from now on interactions are POSTed, signed, to `endpoint` instead of dispatched on
   * the gateway, and the HTTP response is the acknowledgement (no gateway session needed).
   */
  deliverInteractionsTo(endpoint: InteractionsEndpoint): void;
  /** PATCH /applications/@me bodies (e.g. the interactions endpoint URL that registration set). */
  applicationEdits: unknown[];
  /** Answers the next `times` calls matching `matcher` with `response` instead of handling them. */
  respondWith(matcher: (call: RecordedCall) => boolean, response: InjectedResponse, times?: number): void;
  close(): Promise<void>;
}

const API_PREFIX = '/api/v10';
/** How long Discord remembers a message's nonce for `enforce_nonce` ("a few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;
const DISCORD_HEARTBEAT_INTERVAL_MS = 41_250;
/** Discord invalidates an interaction token that was not acknowledged within 3 s. */
const DISCORD_CALLBACK_DEADLINE_MS = 3_000;
const DEFAULT_WAIT_MS = 10_000;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
/** Discord's default upload limit per attachment (10 MiB). */
const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

/** Acknowledgements whose message comes later: an edit of `@original`, or a follow-up. */
const DEFERRALS: ReadonlySet<InteractionResponseType> = new Set([InteractionResponseType.DeferredChannelMessageWithSource, InteractionResponseType.DeferredMessageUpdate]);

/** Which acknowledgements Discord accepts for each interaction type. */
const ALLOWED_CALLBACKS: Partial<Record<InteractionType, readonly InteractionResponseType[]>> = {
  [InteractionType.ApplicationCommand]: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.Modal,
  ],
  [InteractionType.MessageComponent]: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.DeferredMessageUpdate,
    InteractionResponseType.UpdateMessage,
    InteractionResponseType.Modal,
  ],
  [InteractionType.ApplicationCommandAutocomplete]: [InteractionResponseType.ApplicationCommandAutocompleteResult],
};

/** The message fields a bot sends in callbacks, webhook edits and follow-ups. */
interface MessageBody {
  content?: string | null;
  embeds?: APIEmbed[] | null;
  components?: APIMessageTopLevelComponent[] | null;
  flags?: number | null;
  /** Attachments to keep (existing ids) or describe (upload indexes). */
  attachments?: { id: string | number }[] | null;
}

/** A message before the fields a particular write sets. */
type MessageSkeleton = Omit<FakeMessage, 'id' | 'content' | 'embeds' | 'attachments' | 'timestamp'>;

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface Route {
  method: string;
  /** Path segments; `:name` captures one segment. */
  pattern: string[];
  /** Whether the route needs `Authorization: Bot <token>`; interaction endpoints do not. */
  botAuth: boolean;
  handle: (call: RecordedCall, params: Record<string, string>) => Reply;
}

interface InjectedFault {
  matcher: (call: RecordedCall) => boolean;
  response: InjectedResponse;
  remaining: number;
}

let snowflakeIncrement = 0n;

/** A snowflake carrying the current time, which discord.js reads back as `createdTimestamp`. */
function nextSnowflake(): string {
  snowflakeIncrement = (snowflakeIncrement + 1n) & 0xfffn;
  return ((BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n | snowflakeIncrement).toString();
}

function discordError(status: number, code: number, message: string): Reply {
  return { status, body: { message, code } };
}

/** Discord's 400 for components it would refuse (see discord-components.ts), with `flags` the message's once written. */
function invalidComponents(body: MessageBody, flags: number | null | undefined): Reply | undefined {
  const error = componentPayloadError(body, flags ?? 0);
  return error === undefined ? undefined : discordError(400, 50035, `Invalid Form Body: ${error}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasFlag(flags: number | undefined, flag: MessageFlags): boolean {
  return ((flags ?? 0) & flag) !== 0;
}

function guessOptionType(value: OptionValue): ApplicationCommandOptionType {
  if (typeof value === 'string') return ApplicationCommandOptionType.String;
  if (typeof value === 'boolean') return ApplicationCommandOptionType.Boolean;
  return Number.isInteger(value) ? ApplicationCommandOptionType.Integer : ApplicationCommandOptionType.Number;
}

class Exchange implements InteractionExchange {
  readonly dispatchedAt = Date.now();
  readonly dispatchedAtPrecise = performance.now();
  acknowledgedAtPrecise?: number;
  acknowledgement?: { callback: InteractionCallback; message?: FakeMessage };
  /** HTTP mode: why the bot's HTTP answer was not an acknowledgement (status and body), if it was not. */
  httpFailure?: string;
  /** The current state of `@original`, once the acknowledgement created or designated it. */
  original?: FakeMessage;
  readonly followUpMessages = new Map<string, FakeMessage>();
  readonly editWrites: MessageWrite[] = [];
  readonly followUpWrites: MessageWrite[] = [];

  constructor(
    readonly payload: APIInteraction,
    /** What the messages this interaction creates look like before their content is set. */
    readonly messageTemplate: MessageSkeleton,
    /** The message a component sits on: `@original` for type 6/7 acknowledgements. */
    readonly sourceMessage: FakeMessage | undefined,
  ) {
    // Several waits may be pending on one exchange (a callback, then an edit).
    this.changes.setMaxListeners(0);
  }

  /**
   * Emits whenever a request touched this interaction. Its own, not the server's: a wait on one
   * exchange is not woken by every other exchange's request (the bench's throughput keeps hundreds
   * pending, and one shared emitter made each request probe them all).
   */
  readonly changes = new EventEmitter();

  get id(): string {
    return this.payload.id;
  }

  get token(): string {
    return this.payload.token;
  }

  callback(timeoutMs = DEFAULT_WAIT_MS): Promise<InteractionCallback> {
    return this.waitFor(() => this.acknowledgement?.callback, timeoutMs, 'acknowledgement (callback)');
  }

  timing(): { dispatchedAt: number; acknowledgedAt: number | undefined } {
    return { dispatchedAt: this.dispatchedAtPrecise, acknowledgedAt: this.acknowledgedAtPrecise };
  }

  edits(): MessageWrite[] {
    return [...this.editWrites];
  }

  waitForEdit(
    predicate: (edit: MessageWrite) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<MessageWrite> {
    return this.waitFor(() => this.editWrites.find(predicate), timeoutMs, 'matching @original edit');
  }

  followUps(): MessageWrite[] {
    return [...this.followUpWrites];
  }

  waitForFollowUp(
    predicate: (followUp: MessageWrite) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<MessageWrite> {
    return this.waitFor(() => this.followUpWrites.find(predicate), timeoutMs, 'matching follow-up');
  }

  async final(timeoutMs = DEFAULT_WAIT_MS): Promise<FinalMessage> {
    const callback = await this.callback(timeoutMs);
    const message = this.acknowledgement?.message;
    switch (callback.type) {
      case InteractionResponseType.ChannelMessageWithSource:
      case InteractionResponseType.UpdateMessage:
        if (!message) throw new Error(`interaction ${this.id}: callback type ${callback.type} produced no message`);
        return toFinalMessage(message, callback.files);
      case InteractionResponseType.DeferredChannelMessageWithSource: {
        const write = await this.waitFor(() => this.editWrites[0] ?? (this.original === undefined ? this.followUpWrites[0] : undefined), timeoutMs, '@original edit, or follow-up after its deletion');
        return toFinalMessage(write.message, write.files);
      }
      case InteractionResponseType.DeferredMessageUpdate: {
        // A press deferred without a placeholder is answered by editing the message it sits on, or
        // by a new (often private) message: a follow-up.
        const write = await this.waitFor(() => this.editWrites[0] ?? this.followUpWrites[0], timeoutMs, '@original edit or follow-up');
        return toFinalMessage(write.message, write.files);
      }
      default:
        throw new Error(
          `interaction ${this.id} was acknowledged with callback type ${callback.type}, which shows no message`,
        );
    }
  }

  private waitFor<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return waitForCondition({
      emitter: this.changes,
      events: ['change'],
      probe,
      timeoutMs,
      describeTimeout: () =>
        `interaction ${this.id} (${describeInteraction(this.payload)}): no ${what} within ${timeoutMs} ms` +
        ` (acknowledged: ${this.acknowledgement ? `type ${this.acknowledgement.callback.type}` : (this.httpFailure ?? 'no')},` +
        ` edits: ${this.editWrites.length}, follow-ups: ${this.followUpWrites.length})`,
    });
  }
}

function toFinalMessage(message: FakeMessage, files: UploadedFile[]): FinalMessage {
  return { ...message, ephemeral: hasFlag(message.flags, MessageFlags.Ephemeral), files };
}

/** The message without the convenience fields of `FinalMessage`, as Discord would send it back. */
function toApiMessage(message: FakeMessage | FinalMessage): FakeMessage {
  if (!('files' in message)) return message;
  const { ephemeral: _ephemeral, files: _files, ...apiMessage } = message;
  return apiMessage;
}

function describeInteraction(payload: APIInteraction): string {
  const data: unknown = payload.data;
  if (isRecord(data) && typeof data.name === 'string') return `/${data.name}`;
  if (isRecord(data) && typeof data.custom_id === 'string') return `component ${data.custom_id}`;
  return `type ${payload.type}`;
}

class FakeDiscordServer implements FakeDiscord {
  readonly applicationId = APPLICATION_ID;
  readonly botUserId = BOT_USER.id;
  readonly guilds: readonly FakeGuild[];
  readonly guildId: string;
  readonly channels: FakeGuild['channels'];
  readonly calls: RecordedCall[] = [];
  private keepingHistory = true;
  readonly applicationEdits: unknown[] = [];
  private interactionsEndpoint?: InteractionsEndpoint;

  private readonly server = createServer((request, response) => void this.handleHttp(request, response));
  /** Emits 'change' after every state change that a test may be waiting for. */
  private readonly changes = new EventEmitter();
  private readonly gateway: FakeGateway;
  private readonly exchangesById = new Map<string, Exchange>();
  private readonly exchangesByToken = new Map<string, Exchange>();
  private readonly faults: InjectedFault[] = [];
  /** Registered commands by `guildId/name` (`global/name` for global ones). */
  private readonly commands = new Map<string, APIApplicationCommand>();
  /** Ids for commands invoked without being registered, stable across interactions. */
  private readonly unregisteredCommandIds = new Map<string, string>();
  private readonly routes: Route[];
  private readonly dmChannelIds = new Map<string, string>();
  /** Messages the bot wrote in channels (not interaction replies), by id; deleted ones are removed. */
  private readonly channelMessages = new Map<string, FakeMessage>();
  private readonly channelPostWrites: MessageWrite[] = [];
  /** Channels posts are refused in, and how. */
  private readonly channelAccess = new Map<string, 'deleted' | 'closed'>();
  /** The bot's posts by nonce, for `enforce_nonce`: the first message and when it was made. */
  private readonly postsByNonce = new Map<string, { message: FakeMessage; at: number }>();
  private readonly channelEditWrites: MessageWrite[] = [];
  private readonly callbackDeadlineMs: number;
  private readonly now: () => number;
  private baseUrl = '';
  private readonly cdn = new FakeDiscordCdn(() => this.baseUrl);

  constructor(private readonly options: FakeDiscordOptions) {
    this.callbackDeadlineMs = options.callbackDeadlineMs ?? DISCORD_CALLBACK_DEADLINE_MS;
    this.now = options.now ?? Date.now;
    this.guilds = fakeGuilds(options.guilds ?? 1);
    this.guildId = this.guilds[0]!.id;
    this.channels = { ...this.guilds[0]!.channels };
    // Listeners come and go with every wait; several waits may be pending at once.
    this.changes.setMaxListeners(0);
    this.gateway = new FakeGateway({
      server: this.server,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? DISCORD_HEARTBEAT_INTERVAL_MS,
      guilds: this.guilds,
      ...(options.guildShape === 'community' ? { guildCreate: communityGuildCreate } : {}),
      acceptsToken: (token) => this.acceptsToken(token),
      url: () => this.gatewayUrl,
      changes: this.changes,
    });
    if (options.commands) this.registerCommands(options.commands, undefined);
    this.routes = this.buildRoutes();
  }

  get apiUrl(): string {
    return `${this.baseUrl}/api`;
  }

  private get gatewayUrl(): string {
    return this.baseUrl.replace(/^http/, 'ws');
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  get identifyCount(): number {
    return this.gateway.identifyCount;
  }

  get resumeCount(): number {
    return this.gateway.resumeCount;
  }

  ready(): Promise<void> {
    const identified = (): true | undefined => (this.identifyCount > 0 ? true : undefined);
    return this.waitFor(identified, DEFAULT_WAIT_MS, 'no client identified').then(() => undefined);
  }

  connected(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.waitFor(() => this.gateway.liveSession(), timeoutMs, 'no client session connected').then(() => undefined);
  }

  gatewaySessions(): GatewaySessionInfo[] {
    return this.gateway.sessionInfos();
  }

  dispatch(eventName: string, data: unknown): void {
    this.gateway.dispatch(eventName, data);
  }

  closeSocket(code: number): void {
    this.gateway.closeSocket(code);
  }

  stopHeartbeatAcks(): void {
    this.gateway.stopHeartbeatAcks();
  }

  deliverInteractionsTo(endpoint: InteractionsEndpoint): void {
    this.interactionsEndpoint = endpoint;
  }

  respondWith(matcher: (call: RecordedCall) => boolean, response: InjectedResponse, times = 1): void {
    this.faults.push({ matcher, response, remaining: times });
  }

  chatInput(input: ChatInputInput): Promise<InteractionExchange> {
    const attachments = Object.entries(input.attachments ?? {});
    const options = this.commandOptions(input.name, input.subcommand, input.options ?? {});
    const leaves = (input.subcommand === undefined ? options : (options[0] as { options: unknown[] }).options) as unknown[];
    for (const [name, attachment] of attachments) leaves.push({ name, type: ApplicationCommandOptionType.Attachment, value: attachment.id });
    return this.startExchange(input, InteractionType.ApplicationCommand, {
      id: this.commandId(input.name, ApplicationCommandType.ChatInput),
      name: input.name,
      type: ApplicationCommandType.ChatInput,
      options,
      ...(attachments.length === 0 ? {} : { resolved: { attachments: Object.fromEntries(attachments.map(([, file]) => [file.id, file])) } }),
    });
  }

  get cdnUrl(): string {
    return this.baseUrl;
  }

  attachment(file: CdnFile): APIAttachment {
    return this.cdn.attachment(this.channels.normal, file);
  }

  get cdnDownloads(): readonly CdnDownload[] {
    return this.cdn.downloads;
  }

  autocomplete(input: AutocompleteInput): Promise<InteractionExchange> {
    return this.startExchange(input, InteractionType.ApplicationCommandAutocomplete, {
      id: this.commandId(input.name, ApplicationCommandType.ChatInput),
      name: input.name,
      type: ApplicationCommandType.ChatInput,
      options: this.commandOptions(input.name, input.subcommand, input.options, input.focused),
    });
  }

  button(input: ButtonInput): Promise<InteractionExchange> {
    return this.startExchange(
      input,
      InteractionType.MessageComponent,
      { custom_id: input.customId, component_type: ComponentType.Button },
      toApiMessage(input.message),
    );
  }

  select(input: SelectInput): Promise<InteractionExchange> {
    return this.startExchange(
      input,
      InteractionType.MessageComponent,
      { custom_id: input.customId, component_type: ComponentType.StringSelect, values: input.values },
      toApiMessage(input.message),
    );
  }

  messageContext(input: MessageContextInput): Promise<InteractionExchange> {
    const user = this.userFor(input);
    const target: FakeMessage = {
      ...this.plainMessageFields(this.channelIdFor(input, user), user),
      id: nextSnowflake(),
      content: input.targetContent,
      embeds: [],
      attachments: input.targetAttachments ?? [],
      timestamp: new Date().toISOString(),
    };
    return this.startExchange(input, InteractionType.ApplicationCommand, {
      id: this.commandId(input.name, ApplicationCommandType.Message),
      name: input.name,
      type: ApplicationCommandType.Message,
      target_id: target.id,
      resolved: { messages: { [target.id]: target } },
    });
  }

  userMessage(input: UserMessageInput): FakeMessage {
    const author = { ...DEFAULT_USER, ...input.author };
    const dm = input.channel === 'dm';
    const channel = input.channel ?? 'normal';
    const channelId = input.channelId ?? (channel === 'dm' ? this.channelIdFor({ channel }, author) : this.channels[channel]);
    const message: FakeMessage = {
      ...this.plainMessageFields(channelId, author),
      id: nextSnowflake(),
      content: input.content,
      embeds: [],
      attachments: [],
      timestamp: new Date().toISOString(),
      ...(input.webhookId === undefined ? {} : { webhook_id: input.webhookId }),
    };
    this.dispatchMessage(GatewayDispatchEvents.MessageCreate, dm ? undefined : this.guildId, message);
    return message;
  }

  editUserMessage(message: FakeMessage, content: string): FakeMessage {
    const edited = { ...message, content, edited_timestamp: new Date().toISOString() };
    this.dispatchMessage(GatewayDispatchEvents.MessageUpdate, this.guildOfChannel(message.channel_id), edited);
    return edited;
  }

  deleteUserMessage(message: FakeMessage): void {
    const guildId = this.guildOfChannel(message.channel_id);
    this.gateway.dispatchForGuild(guildId, GatewayDispatchEvents.MessageDelete, {
      id: message.id,
      channel_id: message.channel_id,
      ...(guildId === undefined ? {} : { guild_id: guildId }),
    });
  }

  channelPosts(): MessageWrite[] {
    return [...this.channelPostWrites];
  }

  channelEdits(): MessageWrite[] {
    return [...this.channelEditWrites];
  }

  channelMessage(id: string): FakeMessage | undefined {
    return this.channelMessages.get(id);
  }

  waitUntil<T>(probe: () => T | undefined, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
    return this.waitFor(probe, timeoutMs, 'the awaited condition did not come');
  }

  async close(): Promise<void> {
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- messages in channels ------------------------------------------------------------------

  /** The guild of a channel the bot knows (DMs: none). */
  private guildOfChannel(channelId: string): string | undefined {
    return [...this.dmChannelIds.values()].includes(channelId) ? undefined : this.guildId;
  }

  /** A guild message carries its guild and the author's member, as Discord sends them. */
  private dispatchMessage(event: GatewayDispatchEvents, guildId: string | undefined, message: FakeMessage): void {
    const { author } = message;
    const guildFields = guildId === undefined ? {} : { guild_id: guildId, member: { ...guildMember(author), user: undefined } };
    this.gateway.dispatchForGuild(guildId, event, { ...message, ...guildFields });
  }

  setChannelAccess(channelId: string, access: 'open' | 'deleted' | 'closed'): void {
    if (access === 'open') this.channelAccess.delete(channelId);
    else this.channelAccess.set(channelId, access);
  }

  private postChannelMessage(call: RecordedCall, channelId: string): Reply {
    const files = call.files ?? [];
    const body = (isRecord(call.json) ? call.json : {}) as MessageBody & { message_reference?: { message_id?: string }; nonce?: string | number; enforce_nonce?: boolean };
    const access = this.channelAccess.get(channelId);
    if (access === 'deleted') return discordError(404, 10003, 'Unknown Channel');
    if (access === 'closed') return discordError(403, 50001, 'Missing Access');
    // Discord: a nonce is at most 25 characters; with enforce_nonce, a repeat from the same author
    // within a few minutes returns the first message instead of posting again.
    if (body.nonce !== undefined && String(body.nonce).length > 25) return discordError(400, 50035, 'Invalid Form Body');
    const refused = invalidComponents(body, body.flags);
    if (refused) return refused;
    const nonceKey = body.nonce === undefined ? undefined : `${channelId}:${String(body.nonce)}`;
    if (nonceKey !== undefined && body.enforce_nonce === true) {
      const first = this.postsByNonce.get(nonceKey);
      if (first !== undefined && this.now() - first.at < NONCE_WINDOW_MS) return { status: 200, body: first.message };
    }
    const replyTo = body.message_reference?.message_id;
    const message: FakeMessage = {
      ...this.createMessage(this.plainMessageFields(channelId, BOT_USER), body, files),
      ...(replyTo === undefined ? {} : { type: MessageType.Reply, message_reference: { message_id: replyTo, channel_id: channelId } }),
    };
    this.channelMessages.set(message.id, message);
    this.channelPostWrites.push({ call, message, files });
    if (nonceKey !== undefined) this.postsByNonce.set(nonceKey, { message, at: this.now() });
    return { status: 200, body: message };
  }

  private editChannelMessage(call: RecordedCall, channelId: string, messageId: string): Reply {
    const existing = this.channelMessages.get(messageId);
    if (existing?.channel_id !== channelId) return discordError(404, 10008, 'Unknown Message');
    const files = call.files ?? [];
    const body = (isRecord(call.json) ? call.json : {}) as MessageBody;
    const refused = invalidComponents(body, body.flags ?? existing.flags);
    if (refused) return refused;
    const edited = this.patchMessage(existing, body, files);
    this.channelMessages.set(messageId, edited);
    this.channelEditWrites.push({ call, message: edited, files });
    return { status: 200, body: edited };
  }

  private deleteChannelMessage(channelId: string, messageId: string): Reply {
    if (this.channelMessages.get(messageId)?.channel_id !== channelId) return discordError(404, 10008, 'Unknown Message');
    this.channelMessages.delete(messageId);
    return { status: 204 };
  }

  // ---- interactions --------------------------------------------------------------------------

  private userFor(origin: InteractionOrigin): FakeUser {
    return { ...DEFAULT_USER, ...origin.user };
  }

  /** The guild an interaction comes from (the first guild unless the origin names another). */
  private guildFor(origin: InteractionOrigin): FakeGuild {
    if (origin.guildId === undefined) return this.guilds[0]!;
    const guild = this.guilds.find((candidate) => candidate.id === origin.guildId);
    if (!guild) throw new Error(`unknown guild ${origin.guildId}: pick one of fake.guilds (see the guilds option)`);
    return guild;
  }

  /** The guild whose shard receives the interaction: none for DMs (shard 0), the foreign server for its channels. */
  private shardGuildIdFor(origin: InteractionOrigin): string | undefined {
    const channel = origin.channel ?? 'normal';
    if (channel === 'dm' || channel === 'groupDm') return undefined;
    if (isUserInstallChannel(channel)) return FOREIGN_GUILD_ID;
    return this.guildFor(origin).id;
  }

  private channelIdFor(origin: InteractionOrigin, user: FakeUser): string {
    const channel = origin.channel ?? 'normal';
    if (isUserInstallChannel(channel)) return FOREIGN_CHANNEL_IDS[channel];
    if (channel !== 'dm') return this.guildFor(origin).channels[channel];
    let dmChannelId = this.dmChannelIds.get(user.id);
    if (!dmChannelId) {
      dmChannelId = nextSnowflake();
      this.dmChannelIds.set(user.id, dmChannelId);
    }
    return dmChannelId;
  }

  /** Where a user install is used and the bot is absent: a server it is not in, or a group DM. */
  private userInstallFields(user: FakeUser, channelName: UserInstallChannelName, appPermissions: bigint | undefined): Record<string, unknown> {
    const channelId = FOREIGN_CHANNEL_IDS[channelName];
    const userInstall = {
      channel_id: channelId,
      authorizing_integration_owners: { 1: user.id } satisfies APIAuthorizingIntegrationOwnersMap,
      app_permissions: (appPermissions ?? USER_INSTALL_APP_PERMISSIONS).toString(),
    };
    if (channelName === 'groupDm') {
      return {
        ...userInstall,
        user,
        channel: { id: channelId, type: ChannelType.GroupDM, name: null, icon: null, owner_id: user.id, last_message_id: null, flags: 0, recipients: [user, GROUP_DM_FRIEND] },
        context: InteractionContextType.PrivateChannel,
      };
    }
    const member: APIInteractionGuildMember = { ...guildMember(user), user, permissions: MEMBER_PERMISSIONS.toString() };
    return {
      ...userInstall,
      guild_id: FOREIGN_GUILD_ID,
      guild: { id: FOREIGN_GUILD_ID, locale: DEFAULT_LOCALE, features: [] },
      guild_locale: DEFAULT_LOCALE,
      member,
      channel: { ...foreignGuildChannel(channelName), permissions: MEMBER_PERMISSIONS.toString() },
      context: InteractionContextType.Guild,
    };
  }

  /** The fields Discord adds about where an interaction happened and who started it. */
  private originFields(origin: InteractionOrigin): Record<string, unknown> {
    const user = this.userFor(origin);
    const channelName = origin.channel ?? 'normal';
    if (isUserInstallChannel(channelName)) return this.userInstallFields(user, channelName, origin.appPermissions);
    const guildInstallId = channelName === 'dm' ? '0' : this.guildFor(origin).id;
    const owners: APIAuthorizingIntegrationOwnersMap = origin.install === 'user' ? { 1: user.id } : { 0: guildInstallId };
    if (channelName === 'dm') {
      const channelId = this.channelIdFor(origin, user);
      return {
        user,
        channel: { id: channelId, type: ChannelType.DM, last_message_id: null, flags: 0, recipients: [user] },
        channel_id: channelId,
        context: InteractionContextType.BotDM,
        // A guild-installed app used in its bot's DM reports the guild install with the id "0".
        authorizing_integration_owners: owners,
        app_permissions: (origin.appPermissions ?? DM_APP_PERMISSIONS).toString(),
      };
    }
    const member: APIInteractionGuildMember = {
      ...guildMember(user),
      user,
      permissions: (origin.memberPermissions ?? MEMBER_PERMISSIONS).toString(),
    };
    const guild = this.guildFor(origin);
    return {
      guild_id: guild.id,
      guild: { id: guild.id, locale: DEFAULT_LOCALE, features: [] },
      guild_locale: DEFAULT_LOCALE,
      member,
      channel: { ...guildChannels(guild)[channelName], permissions: MEMBER_PERMISSIONS.toString() },
      channel_id: guild.channels[channelName],
      context: InteractionContextType.Guild,
      authorizing_integration_owners: owners,
      app_permissions: (origin.appPermissions ?? GUILD_APP_PERMISSIONS).toString(),
    };
  }

  private async startExchange(
    origin: InteractionOrigin,
    type: InteractionType,
    data: Record<string, unknown>,
    sourceMessage?: FakeMessage,
  ): Promise<InteractionExchange> {
    // Discord sends a guild's interactions on its shard's connection (DMs on shard 0); in HTTP mode, by POST.
    const guildId = this.shardGuildIdFor(origin);
    if (!this.interactionsEndpoint) {
      await this.waitFor(
        () => this.gateway.liveSessionForGuild(guildId),
        DEFAULT_WAIT_MS,
        `no client session connected for the shard of guild ${guildId ?? '(DM)'}`,
      );
    }
    const id = nextSnowflake();
    // Real tokens are long opaque strings; this alphabet needs no URL encoding. randomUUID draws
    // from a cached pool of entropy: randomBytes cost 1.5 % of the bench's load generator.
    const token = `fake-interaction-token.${randomUUID()}`;
    const user = this.userFor(origin);
    const payload = {
      id,
      application_id: APPLICATION_ID,
      type,
      token,
      version: 1,
      data,
      locale: origin.locale ?? DEFAULT_LOCALE,
      entitlements: [],
      attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
      ...this.originFields(origin),
      ...(sourceMessage ? { message: sourceMessage } : {}),
      // Assembled from parts shared by every interaction kind, so TypeScript cannot correlate `type`
      // with `data`; discord.test.ts proves the shape against the real discord.js client.
    } as unknown as APIInteraction;
    const channelId = this.channelIdFor(origin, user);
    const exchange = new Exchange(
      payload,
      this.responseMessageTemplate(payload, channelId, user),
      sourceMessage,
    );
    this.exchangesById.set(id, exchange);
    this.exchangesByToken.set(token, exchange);
    if (this.interactionsEndpoint) void this.deliverOverHttp(this.interactionsEndpoint, exchange);
    else this.gateway.dispatchForGuild(guildId, GatewayDispatchEvents.InteractionCreate, payload);
    return exchange;
  }

  /** HTTP mode: the bot's answer to the POST goes through the same checks as a callback request. */
  private async deliverOverHttp(endpoint: InteractionsEndpoint, exchange: Exchange): Promise<void> {
    try {
      const response = await endpoint.deliver(exchange.payload);
      if (response.status !== 200) {
        exchange.httpFailure = `HTTP ${response.status} ${response.text ?? JSON.stringify(response.json)}`;
        return;
      }
      const call: RecordedCall = {
        method: 'POST',
        path: `/interactions/${exchange.id}/${exchange.token}/callback`,
        query: new URLSearchParams(),
        headers: {},
        json: response.json,
        files: response.files,
        at: this.now(),
        receivedAt: performance.now(),
        status: 0,
      };
      const reply = this.acknowledge(call, exchange.id, exchange.token);
      if (reply.status >= 400) exchange.httpFailure = `refused: ${JSON.stringify(reply.body)}`;
    } catch (error) {
      exchange.httpFailure = `request failed: ${String(error)}`;
    } finally {
      this.changes.emit('change');
      exchange.changes.emit('change');
    }
  }

  private plainMessageFields(channelId: string, author: FakeUser): MessageSkeleton {
    return {
      channel_id: channelId,
      author,
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      pinned: false,
      type: MessageType.Default,
      components: [],
    };
  }

  /** How Discord shapes the messages a bot posts in answer to an interaction. */
  private responseMessageTemplate(
    payload: APIInteraction,
    channelId: string,
    user: FakeUser,
  ): MessageSkeleton {
    const data: unknown = payload.data;
    const commandName = isRecord(data) && typeof data.name === 'string' ? data.name : undefined;
    const isCommand = payload.type === InteractionType.ApplicationCommand;
    const messageType = !isCommand
      ? MessageType.Default
      : isRecord(data) && data.type === ApplicationCommandType.ChatInput
        ? MessageType.ChatInputCommand
        : MessageType.ContextMenuCommand;
    return {
      ...this.plainMessageFields(channelId, BOT_USER),
      type: messageType,
      webhook_id: APPLICATION_ID,
      application_id: APPLICATION_ID,
      interaction_metadata: {
        id: payload.id,
        type: payload.type,
        user,
        authorizing_integration_owners: payload.authorizing_integration_owners,
        ...(payload.message ? { interacted_message_id: payload.message.id } : {}),
      } as FakeMessage['interaction_metadata'],
      // The deprecated `interaction` field still arrives, and older bot code reads it.
      ...(isCommand && commandName
        ? { interaction: { id: payload.id, type: payload.type, name: commandName, user } }
        : {}),
    };
  }

  private commandId(name: string, type: ApplicationCommandType): string {
    const registered = [...this.commands.values()].find((command) => command.name === name && command.type === type);
    if (registered) return registered.id;
    const key = `${type}/${name}`;
    const id = this.unregisteredCommandIds.get(key) ?? nextSnowflake();
    this.unregisteredCommandIds.set(key, id);
    return id;
  }

  private commandOptions(
    commandName: string,
    subcommand: string | undefined,
    values: Record<string, OptionValue>,
    focused?: string,
  ): APIApplicationCommandInteractionDataOption[] {
    const schema = this.optionSchemas(commandName, subcommand);
    const entries = Object.entries(values);
    if (focused !== undefined && !(focused in values)) entries.push([focused, '']);
    const options = entries.map(
      ([name, value]) =>
        ({
          name,
          type: schema?.find((option) => option.name === name)?.type ?? guessOptionType(value),
          value,
          ...(name === focused ? { focused: true } : {}),
        }) as APIApplicationCommandInteractionDataOption,
    );
    if (subcommand === undefined) return options;
    const subcommandOption = { name: subcommand, type: ApplicationCommandOptionType.Subcommand, options };
    return [subcommandOption as APIApplicationCommandInteractionDataOption];
  }

  private optionSchemas(
    commandName: string,
    subcommand: string | undefined,
  ): APIApplicationCommandOption[] | undefined {
    const command = [...this.commands.values()].find(
      (candidate) => candidate.name === commandName && candidate.type === ApplicationCommandType.ChatInput,
    );
    if (subcommand === undefined) return command?.options;
    const sub = command?.options?.find(
      (option) => option.type === ApplicationCommandOptionType.Subcommand && option.name === subcommand,
    );
    return sub && 'options' in sub ? sub.options : undefined;
  }

  private registerCommands(
    bodies: RESTPostAPIApplicationCommandsJSONBody[],
    guildId: string | undefined,
  ): APIApplicationCommand[] {
    return bodies.map((body) => {
      const key = `${guildId ?? 'global'}/${body.name}`;
      const command = {
        default_member_permissions: null,
        nsfw: false,
        description: '',
        type: ApplicationCommandType.ChatInput,
        ...body,
        id: this.commands.get(key)?.id ?? nextSnowflake(),
        application_id: APPLICATION_ID,
        version: nextSnowflake(),
        ...(guildId ? { guild_id: guildId } : {}),
      } as APIApplicationCommand;
      this.commands.set(key, command);
      return command;
    });
  }

  // ---- messages ------------------------------------------------------------------------------

  private attachmentsFor(
    message: Pick<FakeMessage, 'channel_id' | 'attachments'>,
    body: MessageBody,
    files: UploadedFile[],
  ): APIAttachment[] {
    if (body.attachments == null && files.length === 0) return message.attachments;
    const keptIds = new Set((body.attachments ?? []).map((attachment) => String(attachment.id)));
    const kept = message.attachments.filter((attachment) => keptIds.has(attachment.id));
    const uploaded = files.map((file): APIAttachment => {
      const id = nextSnowflake();
      const url = `${this.baseUrl}/attachments/${message.channel_id}/${id}/${encodeURIComponent(file.name)}`;
      return { id, filename: file.name, size: file.data.length, url, proxy_url: url, content_type: file.contentType };
    });
    return [...kept, ...uploaded];
  }

  private createMessage(template: MessageSkeleton, body: MessageBody, files: UploadedFile[], extraFlags = 0): FakeMessage {
    const empty = { ...template, attachments: [] };
    return {
      ...template,
      id: nextSnowflake(),
      content: body.content ?? '',
      embeds: body.embeds ?? [],
      components: body.components ?? [],
      attachments: this.attachmentsFor(empty, body, files),
      flags: (body.flags ?? 0) | extraFlags,
      timestamp: new Date().toISOString(),
    };
  }

  /** A new snapshot of `message` with the fields `body` sets; earlier snapshots stay as they were. */
  private patchMessage(message: FakeMessage, body: MessageBody, files: UploadedFile[]): FakeMessage {
    const wasLoading = hasFlag(message.flags, MessageFlags.Loading);
    // Ephemerality is fixed when the message is created; edits cannot add or remove it.
    const ephemeral = (message.flags ?? 0) & MessageFlags.Ephemeral;
    const requestedFlags = body.flags ?? (message.flags ?? 0);
    return {
      ...message,
      content: body.content === undefined ? message.content : (body.content ?? ''),
      embeds: body.embeds === undefined ? message.embeds : (body.embeds ?? []),
      components: body.components === undefined ? message.components : (body.components ?? []),
      attachments: this.attachmentsFor(message, body, files),
      flags: (requestedFlags & ~(MessageFlags.Ephemeral | MessageFlags.Loading)) | ephemeral,
      // Completing a deferred reply is not an edit in Discord's eyes.
      edited_timestamp: wasLoading ? null : new Date().toISOString(),
    };
  }

  // ---- REST ----------------------------------------------------------------------------------

  private buildRoutes(): Route[] {
    const route = (method: string, path: string, botAuth: boolean, handle: Route['handle']): Route => ({
      method,
      pattern: path.split('/').filter(Boolean),
      botAuth,
      handle,
    });
    const gatewayInfo = (): Reply => ({
      status: 200,
      body: {
        url: this.gatewayUrl,
        shards: this.options.shardCount ?? 1,
        session_start_limit: {
          total: 1000,
          remaining: 1000,
          reset_after: 0,
          max_concurrency: this.options.maxConcurrency ?? 1,
        },
      },
    });
    return [
      route('GET', '/gateway/bot', true, gatewayInfo),
      route('GET', '/gateway', false, () => ({ status: 200, body: { url: this.gatewayUrl } })),
      route('GET', '/users/@me', true, () => ({ status: 200, body: BOT_USER })),
      route('GET', '/applications/@me', true, () => ({
        status: 200,
        body: { id: APPLICATION_ID, name: BOT_USER.username, description: '', bot: BOT_USER, flags: 0 },
      })),
      route('PATCH', '/applications/@me', true, (call) => {
        this.applicationEdits.push(call.json);
        return { status: 200, body: { id: APPLICATION_ID, name: BOT_USER.username, ...(isRecord(call.json) ? call.json : {}) } };
      }),
      route('GET', '/channels/:channel', true, (_call, { channel }) => this.getChannel(channel!)),
      route('POST', '/channels/:channel/messages', true, (call, { channel }) => this.postChannelMessage(call, channel!)),
      route('PATCH', '/channels/:channel/messages/:message', true, (call, { channel, message }) => this.editChannelMessage(call, channel!, message!)),
      route('DELETE', '/channels/:channel/messages/:message', true, (_call, { channel, message }) => this.deleteChannelMessage(channel!, message!)),
      route('PUT', '/applications/:app/commands', true, (call, { app }) => this.putCommands(call, app!, undefined)),
      route('GET', '/applications/:app/commands', true, (_call, { app }) => this.listCommands(app!, undefined)),
      route('PUT', '/applications/:app/guilds/:guild/commands', true, (call, { app, guild }) =>
        this.putCommands(call, app!, guild),
      ),
      route('GET', '/applications/:app/guilds/:guild/commands', true, (_call, { app, guild }) =>
        this.listCommands(app!, guild),
      ),
      route('POST', '/interactions/:id/:token/callback', false, (call, { id, token }) =>
        this.acknowledge(call, id!, token!),
      ),
      route('POST', '/webhooks/:app/:token', false, (call, { app, token }) => this.followUp(call, app!, token!)),
      route('GET', '/webhooks/:app/:token/messages/:message', false, (_call, params) => this.getWebhookMessage(params)),
      route('PATCH', '/webhooks/:app/:token/messages/:message', false, (call, params) =>
        this.editWebhookMessage(call, params),
      ),
      route('DELETE', '/webhooks/:app/:token/messages/:message', false, (_call, params) =>
        this.deleteWebhookMessage(params),
      ),
    ];
  }

  private async handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.cdn.handles(request)) {
      this.cdn.serve(request, response);
      return;
    }
    const at = this.now();
    const receivedAt = performance.now();
    const url = new URL(request.url ?? '/', this.baseUrl);
    const isApiPath = url.pathname.startsWith(`${API_PREFIX}/`);
    const call: RecordedCall = {
      method: request.method ?? 'GET',
      path: isApiPath ? decodeURIComponent(url.pathname.slice(API_PREFIX.length)) : url.pathname,
      query: url.searchParams,
      headers: request.headers,
      at,
      receivedAt,
      status: 0,
    };
    // Looked up first: without history, the acknowledgement forgets its interaction.
    const exchange = this.exchangeOnPath(call.path);
    const reply = (await this.readBodyInto(call, request)) ?? this.replyTo(call, isApiPath);
    call.status = reply.status;
    if (this.keepingHistory) this.calls.push(call);
    const headers = { ...(reply.body === undefined ? {} : { 'content-type': 'application/json' }), ...reply.headers };
    response.writeHead(reply.status, headers);
    response.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
    this.changes.emit('change');
    exchange?.changes.emit('change');
  }

  keepHistory(keep: boolean): void {
    this.keepingHistory = keep;
    this.gateway.keepHistory = keep;
  }

  /** The interaction a callback (`/interactions/:id/…`) or webhook (`/webhooks/:app/:token…`) path names. */
  private exchangeOnPath(path: string): Exchange | undefined {
    const [, resource, first, second] = path.split('/');
    if (resource === 'interactions') return this.exchangesById.get(first ?? '');
    if (resource === 'webhooks') return this.exchangeForWebhook(first ?? '', second ?? '');
    return undefined;
  }

  /** Fills in the call's JSON and files; answers with Discord's error when the body cannot be parsed. */
  private async readBodyInto(call: RecordedCall, request: IncomingMessage): Promise<Reply | undefined> {
    try {
      const body = await readRequestBody(request);
      // Multipart requests carry their JSON in the payload_json field.
      const payloadJson = body.fields.payload_json;
      call.json = payloadJson === undefined ? body.json : JSON.parse(payloadJson);
      if (body.files.length > 0) call.files = body.files;
      return undefined;
    } catch (error) {
      return discordError(400, 50109, `The request body contains invalid JSON. (${String(error)})`);
    }
  }

  private replyTo(call: RecordedCall, isApiPath: boolean): Reply {
    try {
      return this.takeInjectedResponse(call) ?? this.route(call, isApiPath);
    } catch (error) {
      // Surfaces a bug in the fake as a failed request in the test instead of a hung one.
      return discordError(500, 0, `fake Discord failed: ${String(error)}`);
    }
  }

  private takeInjectedResponse(call: RecordedCall): Reply | undefined {
    const fault = this.faults.find((candidate) => candidate.remaining > 0 && candidate.matcher(call));
    if (!fault) return undefined;
    fault.remaining--;
    return fault.response;
  }

  private route(call: RecordedCall, isApiPath: boolean): Reply {
    const segments = call.path.split('/').filter(Boolean);
    for (const candidate of isApiPath ? this.routes : []) {
      if (candidate.method !== call.method || candidate.pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const matches = candidate.pattern.every((part, index) => {
        const segment = segments[index]!;
        if (part.startsWith(':')) params[part.slice(1)] = segment;
        return part.startsWith(':') || part === segment;
      });
      if (!matches) continue;
      if (candidate.botAuth && !this.isAuthorized(call.headers.authorization)) {
        return discordError(401, 0, '401: Unauthorized');
      }
      return candidate.handle(call, params);
    }
    return discordError(404, 0, '404: Not Found');
  }

  private acceptsToken(token: unknown): boolean {
    return this.options.token === undefined || token === this.options.token;
  }

  private isAuthorized(authorization: string | undefined): boolean {
    if (!authorization?.startsWith('Bot ')) return false;
    return this.acceptsToken(authorization.slice('Bot '.length));
  }

  private getChannel(channelId: string): Reply {
    const channels = this.guilds.flatMap((guild) => Object.values(guildChannels(guild)));
    const channel = channels.find((candidate) => candidate.id === channelId);
    return channel ? { status: 200, body: channel } : discordError(404, 10003, 'Unknown Channel');
  }

  private putCommands(call: RecordedCall, app: string, guildId: string | undefined): Reply {
    if (app !== APPLICATION_ID) return discordError(404, 10002, 'Unknown Application');
    if (guildId !== undefined && !this.guilds.some((guild) => guild.id === guildId)) {
      return discordError(404, 10004, 'Unknown Guild');
    }
    if (!Array.isArray(call.json)) return discordError(400, 50035, 'Invalid Form Body');
    // A bulk overwrite replaces the whole scope.
    const scope = `${guildId ?? 'global'}/`;
    for (const key of [...this.commands.keys()]) if (key.startsWith(scope)) this.commands.delete(key);
    return { status: 200, body: this.registerCommands(call.json as RESTPostAPIApplicationCommandsJSONBody[], guildId) };
  }

  private listCommands(app: string, guildId: string | undefined): Reply {
    if (app !== APPLICATION_ID) return discordError(404, 10002, 'Unknown Application');
    const scope = `${guildId ?? 'global'}/`;
    const inScope = [...this.commands].filter(([key]) => key.startsWith(scope)).map(([, command]) => command);
    return { status: 200, body: inScope };
  }

  private acknowledge(call: RecordedCall, id: string, token: string): Reply {
    const exchange = this.exchangesById.get(id);
    if (!exchange || exchange.token !== token) return discordError(404, 10062, 'Unknown interaction');
    if (exchange.acknowledgement) return discordError(400, 40060, 'Interaction has already been acknowledged.');
    if (Date.now() - exchange.dispatchedAt > this.callbackDeadlineMs) {
      return discordError(404, 10062, 'Unknown interaction');
    }
    const body = isRecord(call.json) ? call.json : {};
    const type = body.type as InteractionResponseType;
    if (!ALLOWED_CALLBACKS[exchange.payload.type]?.includes(type)) {
      return discordError(400, 50035, `Invalid Form Body: callback type ${String(body.type)} is not valid here`);
    }
    const data = isRecord(body.data) ? (body.data as InteractionCallbackData) : undefined;
    const messageBody: MessageBody = data ?? {};
    const files = call.files ?? [];
    if (type === InteractionResponseType.ChannelMessageWithSource || type === InteractionResponseType.UpdateMessage) {
      const refused = invalidComponents(messageBody, messageBody.flags ?? (type === InteractionResponseType.UpdateMessage ? exchange.sourceMessage?.flags : 0));
      if (refused) return refused;
    }
    switch (type) {
      case InteractionResponseType.ChannelMessageWithSource:
        exchange.original = this.createMessage(exchange.messageTemplate, messageBody, files);
        break;
      case InteractionResponseType.DeferredChannelMessageWithSource:
        // Discord shows the deferred reply as "is thinking…" (the Loading flag) until the first edit.
        exchange.original = this.createMessage(exchange.messageTemplate, messageBody, files, MessageFlags.Loading);
        break;
      case InteractionResponseType.DeferredMessageUpdate:
        exchange.original = exchange.sourceMessage;
        break;
      case InteractionResponseType.UpdateMessage:
        exchange.original = exchange.sourceMessage && this.patchMessage(exchange.sourceMessage, messageBody, files);
        break;
      default:
        break;
    }
    exchange.acknowledgedAtPrecise = call.receivedAt;
    exchange.acknowledgement = {
      callback: { type, ...(data ? { data } : {}), files },
      ...(exchange.original ? { message: exchange.original } : {}),
    };
    if (!this.keepingHistory && !DEFERRALS.has(type)) {
      this.exchangesById.delete(id);
      this.exchangesByToken.delete(token);
    }
    if (call.query.get('with_response') !== 'true') return { status: 204 };
    return {
      status: 200,
      body: {
        interaction: {
          id,
          type: exchange.payload.type,
          response_message_id: exchange.original?.id,
          response_message_loading: hasFlag(exchange.original?.flags, MessageFlags.Loading),
          response_message_ephemeral: hasFlag(exchange.original?.flags, MessageFlags.Ephemeral),
        },
        resource: { type, ...(exchange.original ? { message: exchange.original } : {}) },
      },
    };
  }

  private exchangeForWebhook(app: string, token: string): Exchange | undefined {
    return app === APPLICATION_ID ? this.exchangesByToken.get(token) : undefined;
  }

  private followUp(call: RecordedCall, app: string, token: string): Reply {
    const exchange = this.exchangeForWebhook(app, token);
    // Discord only accepts follow-ups once the interaction was acknowledged.
    if (!exchange?.acknowledgement) return discordError(404, 10015, 'Unknown Webhook');
    const files = call.files ?? [];
    const body = (isRecord(call.json) ? call.json : {}) as MessageBody;
    const refused = invalidComponents(body, body.flags);
    if (refused) return refused;
    const message = this.createMessage(exchange.messageTemplate, body, files);
    exchange.followUpMessages.set(message.id, message);
    exchange.followUpWrites.push({ call, message, files });
    return call.query.get('wait') === 'true' ? { status: 200, body: message } : { status: 204 };
  }

  /** The message a webhook message route names: `@original` or a follow-up id. */
  private webhookMessage(exchange: Exchange, messageId: string): FakeMessage | undefined {
    return messageId === '@original' ? exchange.original : exchange.followUpMessages.get(messageId);
  }

  private getWebhookMessage({ app, token, message }: Record<string, string>): Reply {
    const exchange = this.exchangeForWebhook(app!, token!);
    if (!exchange) return discordError(404, 10015, 'Unknown Webhook');
    const found = this.webhookMessage(exchange, message!);
    return found ? { status: 200, body: found } : discordError(404, 10008, 'Unknown Message');
  }

  private editWebhookMessage(call: RecordedCall, { app, token, message }: Record<string, string>): Reply {
    const exchange = this.exchangeForWebhook(app!, token!);
    if (!exchange) return discordError(404, 10015, 'Unknown Webhook');
    const existing = this.webhookMessage(exchange, message!);
    if (!existing) return discordError(404, 10008, 'Unknown Message');
    const files = call.files ?? [];
    const body = (isRecord(call.json) ? call.json : {}) as MessageBody;
    const refused = invalidComponents(body, body.flags ?? existing.flags);
    if (refused) return refused;
    const edited = this.patchMessage(existing, body, files);
    if (message === '@original') {
      exchange.original = edited;
      exchange.editWrites.push({ call, message: edited, files });
    } else {
      exchange.followUpMessages.set(edited.id, edited);
    }
    return { status: 200, body: edited };
  }

  private deleteWebhookMessage({ app, token, message }: Record<string, string>): Reply {
    const exchange = this.exchangeForWebhook(app!, token!);
    if (!exchange) return discordError(404, 10015, 'Unknown Webhook');
    if (!this.webhookMessage(exchange, message!)) return discordError(404, 10008, 'Unknown Message');
    if (message === '@original') exchange.original = undefined;
    else exchange.followUpMessages.delete(message!);
    return { status: 204 };
  }

  private waitFor<T>(probe: () => T | undefined, timeoutMs: number, failure: string): Promise<T> {
    return waitForCondition({
      emitter: this.changes,
      events: ['change'],
      probe,
      timeoutMs,
      describeTimeout: () =>
        `fake Discord: ${failure} within ${timeoutMs} ms` +
        ` (identifies: ${this.identifyCount}, resumes: ${this.resumeCount})`,
    });
  }
}

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const fake = new FakeDiscordServer(options);
  await fake.listen();
  return fake;
}
