import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ChannelType,
  ComponentType,
  GatewayDispatchEvents,
  GatewayOpcodes,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  type GuildMemberFlags,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  InteractionContextType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  MessageType,
  PermissionFlagsBits,
  type RoleFlags,
  type APIApplicationCommand,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
  type APIAttachment,
  type APIAuthorizingIntegrationOwnersMap,
  type APICommandAutocompleteInteractionResponseCallbackData,
  type APIEmbed,
  type APIGuildMember,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIInteractionResponseCallbackData,
  type APIMessage,
  type APIMessageTopLevelComponent,
  type APITextChannel,
  type APIThreadChannel,
  type APIUser,
  type GatewayGuildCreateDispatchData,
  type Locale,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { readRequestBody, type UploadedFile } from '../helpers/http-body.js';
import type { InteractionsEndpoint } from './discord-http.js';
import { waitForCondition } from '../helpers/wait-for-condition.js';

export type { UploadedFile } from '../helpers/http-body.js';

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
  /** When the request arrived (epoch ms). */
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
export type FakeChannelName = 'normal' | 'ageRestricted' | 'thread' | 'normalThread' | 'dm';

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
  /** Accepted edits of `@original`, in order. */
  edits(): MessageWrite[];
  waitForEdit(predicate?: (edit: MessageWrite) => boolean, timeoutMs?: number): Promise<MessageWrite>;
  /** Accepted follow-up messages, in order. */
  followUps(): MessageWrite[];
  waitForFollowUp(predicate?: (followUp: MessageWrite) => boolean, timeoutMs?: number): Promise<MessageWrite>;
  /** The callback's message for type 4/7, or the first `@original` edit after a type 5/6 defer. */
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
}

export interface ChatInputInput extends InteractionOrigin {
  name: string;
  subcommand?: string;
  options?: Record<string, OptionValue>;
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
}

export interface FakeDiscord {
  /** The `rest.api` option for discord.js; requests then go to `${apiUrl}/v10/...`. */
  apiUrl: string;
  applicationId: string;
  botUserId: string;
  guildId: string;
  channels: { normal: string; ageRestricted: string; thread: string; normalThread: string };
  /** Every REST request, in arrival order, including faults and 404s. */
  calls: RecordedCall[];
  identifyCount: number;
  resumeCount: number;
  /** Resolves once a client has IDENTIFYed and received READY + GUILD_CREATE. */
  ready(): Promise<void>;
  /** Resolves when a client session is connected right now (after READY or RESUMED). */
  connected(timeoutMs?: number): Promise<void>;
  chatInput(input: ChatInputInput): Promise<InteractionExchange>;
  autocomplete(input: AutocompleteInput): Promise<InteractionExchange>;
  button(input: ButtonInput): Promise<InteractionExchange>;
  select(input: SelectInput): Promise<InteractionExchange>;
  messageContext(input: MessageContextInput): Promise<InteractionExchange>;
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
const DISCORD_HEARTBEAT_INTERVAL_MS = 41_250;
/** Discord invalidates an interaction token that was not acknowledged within 3 s. */
const DISCORD_CALLBACK_DEADLINE_MS = 3_000;
const DEFAULT_WAIT_MS = 10_000;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
/** Discord's default upload limit per attachment (10 MiB). */
const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;
const DEFAULT_LOCALE = 'en-US';

// Fixed ids keep payloads and snapshots stable from run to run. Like every current Discord app, the
// bot user shares the application's id.
const APPLICATION_ID = '1356000000000000001';
const GUILD_ID = '1356000000000000100';
const GUILD_OWNER_ID = '1356000000000000099';
const CHANNEL_IDS = {
  normal: '1356000000000000101',
  ageRestricted: '1356000000000000102',
  thread: '1356000000000000103',
  normalThread: '1356000000000000104',
} as const;
const DEFAULT_USER: FakeUser = {
  id: '1356000000000000200',
  username: 'tester',
  global_name: 'Tester',
  discriminator: '0',
  avatar: null,
};
const BOT_USER: FakeUser = {
  id: APPLICATION_ID,
  username: 'Almanac',
  global_name: null,
  discriminator: '0001',
  avatar: null,
  bot: true,
};

const MEMBER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.UseExternalEmojis |
  PermissionFlagsBits.UseApplicationCommands;
const GUILD_APP_PERMISSIONS = MEMBER_PERMISSIONS | PermissionFlagsBits.ManageMessages;
/** What Discord reports as the app's permissions in a DM with its bot. */
const DM_APP_PERMISSIONS =
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.MentionEveryone |
  PermissionFlagsBits.UseExternalEmojis;

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

interface GatewayDispatch {
  op: GatewayOpcodes.Dispatch;
  t: string;
  s: number;
  d: unknown;
}

interface GatewaySession {
  id: string;
  sequence: number;
  /** The authenticated socket, absent while the client is reconnecting. */
  socket?: WebSocket;
  /** Everything dispatched on this session, so a RESUME can replay what the client missed. */
  history: GatewayDispatch[];
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
    private readonly changes: EventEmitter,
  ) {}

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
      case InteractionResponseType.DeferredChannelMessageWithSource:
      case InteractionResponseType.DeferredMessageUpdate: {
        const edit = await this.waitForEdit(undefined, timeoutMs);
        return toFinalMessage(edit.message, edit.files);
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
  readonly guildId = GUILD_ID;
  readonly channels = { ...CHANNEL_IDS };
  readonly calls: RecordedCall[] = [];
  identifyCount = 0;
  resumeCount = 0;
  readonly applicationEdits: unknown[] = [];
  private interactionsEndpoint?: InteractionsEndpoint;

  private readonly server = createServer((request, response) => void this.handleHttp(request, response));
  private readonly gateway = new WebSocketServer({ server: this.server });
  /** Emits 'change' after every state change that a test may be waiting for. */
  private readonly changes = new EventEmitter();
  private readonly sessions = new Map<string, GatewaySession>();
  private currentSession?: GatewaySession;
  private readonly zombieSockets = new WeakSet<WebSocket>();
  private readonly exchangesById = new Map<string, Exchange>();
  private readonly exchangesByToken = new Map<string, Exchange>();
  private readonly faults: InjectedFault[] = [];
  /** Registered commands by `guildId/name` (`global/name` for global ones). */
  private readonly commands = new Map<string, APIApplicationCommand>();
  /** Ids for commands invoked without being registered, stable across interactions. */
  private readonly unregisteredCommandIds = new Map<string, string>();
  private readonly routes: Route[];
  private readonly dmChannelIds = new Map<string, string>();
  private readonly heartbeatIntervalMs: number;
  private readonly callbackDeadlineMs: number;
  private baseUrl = '';

  constructor(private readonly options: FakeDiscordOptions) {
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? DISCORD_HEARTBEAT_INTERVAL_MS;
    this.callbackDeadlineMs = options.callbackDeadlineMs ?? DISCORD_CALLBACK_DEADLINE_MS;
    // Listeners come and go with every wait; several waits may be pending at once.
    this.changes.setMaxListeners(0);
    this.gateway.on('connection', (socket) => this.acceptGatewayConnection(socket));
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

  ready(): Promise<void> {
    const identified = (): true | undefined => (this.identifyCount > 0 ? true : undefined);
    return this.waitFor(identified, DEFAULT_WAIT_MS, 'no client identified').then(() => undefined);
  }

  connected(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.waitFor(() => this.liveSession(), timeoutMs, 'no client session connected').then(() => undefined);
  }

  dispatch(eventName: string, data: unknown): void {
    const session = this.currentSession;
    if (!session) throw new Error('dispatch() needs a client that has identified; await fake.ready() first');
    const payload: GatewayDispatch = { op: GatewayOpcodes.Dispatch, t: eventName, s: ++session.sequence, d: data };
    session.history.push(payload);
    if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(JSON.stringify(payload));
  }

  closeSocket(code: number): void {
    const session = this.liveSession();
    if (!session?.socket) throw new Error('closeSocket(): no client is connected');
    const { socket } = session;
    // Detach first so that interactions wait for the reconnect instead of going to a closing socket.
    session.socket = undefined;
    socket.close(code);
  }

  stopHeartbeatAcks(): void {
    const socket = this.liveSession()?.socket;
    if (!socket) throw new Error('stopHeartbeatAcks(): no client is connected');
    this.zombieSockets.add(socket);
  }

  deliverInteractionsTo(endpoint: InteractionsEndpoint): void {
    this.interactionsEndpoint = endpoint;
  }

  respondWith(matcher: (call: RecordedCall) => boolean, response: InjectedResponse, times = 1): void {
    this.faults.push({ matcher, response, remaining: times });
  }

  chatInput(input: ChatInputInput): Promise<InteractionExchange> {
    return this.startExchange(input, InteractionType.ApplicationCommand, {
      id: this.commandId(input.name, ApplicationCommandType.ChatInput),
      name: input.name,
      type: ApplicationCommandType.ChatInput,
      options: this.commandOptions(input.name, input.subcommand, input.options ?? {}),
    });
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
      ...this.plainMessageFields(this.channelIdFor(input.channel ?? 'normal', user), user),
      id: nextSnowflake(),
      content: input.targetContent,
      embeds: [],
      attachments: [],
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

  async close(): Promise<void> {
    for (const socket of this.gateway.clients) socket.terminate();
    await new Promise<void>((resolve) => this.gateway.close(() => resolve()));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- gateway -------------------------------------------------------------------------------

  private acceptGatewayConnection(socket: WebSocket): void {
    socket.on('message', (raw) => this.onGatewayMessage(socket, raw));
    socket.on('close', () => {
      for (const session of this.sessions.values()) if (session.socket === socket) session.socket = undefined;
      this.changes.emit('change');
    });
    this.send(socket, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.heartbeatIntervalMs } });
  }

  private onGatewayMessage(socket: WebSocket, raw: RawData): void {
    let message: unknown;
    try {
      message = JSON.parse(raw.toString());
    } catch {
      socket.close(4002, 'Error while decoding payload.');
      return;
    }
    if (!isRecord(message)) return;
    const payload = isRecord(message.d) ? message.d : {};
    switch (message.op) {
      case GatewayOpcodes.Heartbeat:
        if (!this.zombieSockets.has(socket)) this.send(socket, { op: GatewayOpcodes.HeartbeatAck });
        break;
      case GatewayOpcodes.Identify:
        this.identify(socket, payload);
        break;
      case GatewayOpcodes.Resume:
        this.resume(socket, payload);
        break;
      default:
        // Presence and voice updates have no effect on a fake.
        break;
    }
  }

  private identify(socket: WebSocket, payload: Record<string, unknown>): void {
    if (!this.acceptsToken(payload.token)) {
      socket.close(4004, 'Authentication failed.');
      return;
    }
    const session: GatewaySession = { id: randomBytes(16).toString('hex'), sequence: 0, history: [], socket };
    this.sessions.set(session.id, session);
    this.currentSession = session;
    this.identifyCount++;
    this.dispatch(GatewayDispatchEvents.Ready, {
      v: 10,
      user: { ...BOT_USER, verified: true, mfa_enabled: false, flags: 0 },
      // Unavailable until GUILD_CREATE, as on Discord; discord.js waits for that GUILD_CREATE.
      guilds: [{ id: GUILD_ID, unavailable: true }],
      session_id: session.id,
      resume_gateway_url: this.gatewayUrl,
      shard: payload.shard ?? [0, 1],
      application: { id: APPLICATION_ID, flags: 0 },
    });
    this.dispatch(GatewayDispatchEvents.GuildCreate, this.guildCreate());
    this.changes.emit('change');
  }

  private resume(socket: WebSocket, payload: Record<string, unknown>): void {
    const session = typeof payload.session_id === 'string' ? this.sessions.get(payload.session_id) : undefined;
    if (!session || !this.acceptsToken(payload.token)) {
      // d: false tells the client the session cannot be resumed and it must identify afresh.
      this.send(socket, { op: GatewayOpcodes.InvalidSession, d: false });
      return;
    }
    const clientSequence = typeof payload.seq === 'number' ? payload.seq : 0;
    session.socket = socket;
    this.currentSession = session;
    this.resumeCount++;
    for (const missed of session.history.filter((dispatch) => dispatch.s > clientSequence)) this.send(socket, missed);
    this.dispatch(GatewayDispatchEvents.Resumed, {});
    this.changes.emit('change');
  }

  private liveSession(): GatewaySession | undefined {
    const session = this.currentSession;
    return session?.socket?.readyState === WebSocket.OPEN ? session : undefined;
  }

  private send(socket: WebSocket, payload: unknown): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
  }

  private acceptsToken(token: unknown): boolean {
    return this.options.token === undefined || token === this.options.token;
  }

  // ---- guild fixtures ------------------------------------------------------------------------

  private textChannel(id: string, name: string, nsfw: boolean, position: number): APITextChannel {
    return {
      id,
      type: ChannelType.GuildText,
      guild_id: GUILD_ID,
      name,
      nsfw,
      position,
      parent_id: null,
      topic: null,
      last_message_id: null,
      rate_limit_per_user: 0,
      permission_overwrites: [],
    };
  }

  private publicThread(id: string, name: string, parentId: string): APIThreadChannel {
    return {
      id,
      type: ChannelType.PublicThread,
      guild_id: GUILD_ID,
      name,
      parent_id: parentId,
      owner_id: DEFAULT_USER.id,
      last_message_id: null,
      rate_limit_per_user: 0,
      message_count: 0,
      member_count: 1,
      total_message_sent: 0,
      applied_tags: [],
      thread_metadata: {
        archived: false,
        auto_archive_duration: 1440,
        archive_timestamp: new Date().toISOString(),
        locked: false,
      },
    };
  }

  private guildChannels(): Record<'normal' | 'ageRestricted', APITextChannel> &
    Record<'thread' | 'normalThread', APIThreadChannel> {
    return {
      normal: this.textChannel(CHANNEL_IDS.normal, 'general', false, 0),
      ageRestricted: this.textChannel(CHANNEL_IDS.ageRestricted, 'age-restricted', true, 1),
      thread: this.publicThread(CHANNEL_IDS.thread, 'age-restricted-thread', CHANNEL_IDS.ageRestricted),
      normalThread: this.publicThread(CHANNEL_IDS.normalThread, 'general-thread', CHANNEL_IDS.normal),
    };
  }

  private guildMember(user: FakeUser): APIGuildMember {
    return {
      user,
      nick: null,
      avatar: null,
      banner: null,
      roles: [],
      joined_at: new Date(0).toISOString(),
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0 as GuildMemberFlags,
      pending: false,
      communication_disabled_until: null,
    };
  }

  private guildCreate(): GatewayGuildCreateDispatchData {
    const channels = this.guildChannels();
    return {
      id: GUILD_ID,
      name: 'Almanac Test Guild',
      icon: null,
      splash: null,
      discovery_splash: null,
      banner: null,
      description: null,
      owner_id: GUILD_OWNER_ID,
      region: 'europe',
      afk_channel_id: null,
      afk_timeout: 300,
      widget_enabled: false,
      widget_channel_id: null,
      verification_level: GuildVerificationLevel.None,
      default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
      explicit_content_filter: GuildExplicitContentFilter.Disabled,
      roles: [
        {
          id: GUILD_ID,
          name: '@everyone',
          color: 0,
          colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
          hoist: false,
          icon: null,
          unicode_emoji: null,
          position: 0,
          permissions: MEMBER_PERMISSIONS.toString(),
          managed: false,
          mentionable: false,
          flags: 0 as RoleFlags,
        },
      ],
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: GuildMFALevel.None,
      application_id: null,
      system_channel_id: CHANNEL_IDS.normal,
      system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotifications,
      rules_channel_id: null,
      max_presences: null,
      max_members: 500_000,
      vanity_url_code: null,
      premium_tier: GuildPremiumTier.None,
      premium_subscription_count: 0,
      preferred_locale: DEFAULT_LOCALE as Locale,
      public_updates_channel_id: null,
      max_video_channel_users: 25,
      max_stage_video_channel_users: 50,
      nsfw_level: GuildNSFWLevel.Default,
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
      hub_type: null,
      incidents_data: null,
      joined_at: new Date(0).toISOString(),
      large: false,
      unavailable: false,
      member_count: 2,
      voice_states: [],
      // Discord always includes the bot's own member, which discord.js exposes as guild.members.me.
      members: [this.guildMember(BOT_USER)],
      channels: [channels.normal, channels.ageRestricted],
      threads: [channels.thread, channels.normalThread],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  // ---- interactions --------------------------------------------------------------------------

  private userFor(origin: InteractionOrigin): FakeUser {
    return { ...DEFAULT_USER, ...origin.user };
  }

  private channelIdFor(channel: FakeChannelName, user: FakeUser): string {
    if (channel !== 'dm') return CHANNEL_IDS[channel];
    let dmChannelId = this.dmChannelIds.get(user.id);
    if (!dmChannelId) {
      dmChannelId = nextSnowflake();
      this.dmChannelIds.set(user.id, dmChannelId);
    }
    return dmChannelId;
  }

  /** The fields Discord adds about where an interaction happened and who started it. */
  private originFields(origin: InteractionOrigin): Record<string, unknown> {
    const user = this.userFor(origin);
    const channelName = origin.channel ?? 'normal';
    if (channelName === 'dm') {
      const channelId = this.channelIdFor('dm', user);
      return {
        user,
        channel: { id: channelId, type: ChannelType.DM, last_message_id: null, flags: 0, recipients: [user] },
        channel_id: channelId,
        context: InteractionContextType.BotDM,
        // A guild-installed app used in its bot's DM reports the guild install with the id "0".
        authorizing_integration_owners: { 0: '0' } satisfies APIAuthorizingIntegrationOwnersMap,
        app_permissions: (origin.appPermissions ?? DM_APP_PERMISSIONS).toString(),
      };
    }
    const member: APIInteractionGuildMember = {
      ...this.guildMember(user),
      user,
      permissions: MEMBER_PERMISSIONS.toString(),
    };
    return {
      guild_id: GUILD_ID,
      guild: { id: GUILD_ID, locale: DEFAULT_LOCALE, features: [] },
      guild_locale: DEFAULT_LOCALE,
      member,
      channel: { ...this.guildChannels()[channelName], permissions: MEMBER_PERMISSIONS.toString() },
      channel_id: CHANNEL_IDS[channelName],
      context: InteractionContextType.Guild,
      authorizing_integration_owners: { 0: GUILD_ID } satisfies APIAuthorizingIntegrationOwnersMap,
      app_permissions: (origin.appPermissions ?? GUILD_APP_PERMISSIONS).toString(),
    };
  }

  private async startExchange(
    origin: InteractionOrigin,
    type: InteractionType,
    data: Record<string, unknown>,
    sourceMessage?: FakeMessage,
  ): Promise<InteractionExchange> {
    if (!this.interactionsEndpoint) await this.connected();
    const id = nextSnowflake();
    // Real tokens are long opaque strings; this alphabet needs no URL encoding.
    const token = `fake-interaction-token.${randomBytes(24).toString('base64url')}`;
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
    const channelId = this.channelIdFor(origin.channel ?? 'normal', user);
    const exchange = new Exchange(
      payload,
      this.responseMessageTemplate(payload, channelId, user),
      sourceMessage,
      this.changes,
    );
    this.exchangesById.set(id, exchange);
    this.exchangesByToken.set(token, exchange);
    if (this.interactionsEndpoint) void this.deliverOverHttp(this.interactionsEndpoint, exchange);
    else this.dispatch(GatewayDispatchEvents.InteractionCreate, payload);
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
        at: Date.now(),
        receivedAt: performance.now(),
        status: 0,
      };
      const reply = this.acknowledge(call, exchange.id, exchange.token);
      if (reply.status >= 400) exchange.httpFailure = `refused: ${JSON.stringify(reply.body)}`;
    } catch (error) {
      exchange.httpFailure = `request failed: ${String(error)}`;
    } finally {
      this.changes.emit('change');
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

  private createMessage(exchange: Exchange, body: MessageBody, files: UploadedFile[], extraFlags = 0): FakeMessage {
    const empty = { ...exchange.messageTemplate, attachments: [] };
    return {
      ...exchange.messageTemplate,
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
        shards: 1,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
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
    const at = Date.now();
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
    const reply = (await this.readBodyInto(call, request)) ?? this.replyTo(call, isApiPath);
    call.status = reply.status;
    this.calls.push(call);
    const headers = { ...(reply.body === undefined ? {} : { 'content-type': 'application/json' }), ...reply.headers };
    response.writeHead(reply.status, headers);
    response.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
    this.changes.emit('change');
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

  private isAuthorized(authorization: string | undefined): boolean {
    if (!authorization?.startsWith('Bot ')) return false;
    return this.acceptsToken(authorization.slice('Bot '.length));
  }

  private getChannel(channelId: string): Reply {
    const channel = Object.values(this.guildChannels()).find((candidate) => candidate.id === channelId);
    return channel ? { status: 200, body: channel } : discordError(404, 10003, 'Unknown Channel');
  }

  private putCommands(call: RecordedCall, app: string, guildId: string | undefined): Reply {
    if (app !== APPLICATION_ID) return discordError(404, 10002, 'Unknown Application');
    if (guildId !== undefined && guildId !== GUILD_ID) return discordError(404, 10004, 'Unknown Guild');
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
    switch (type) {
      case InteractionResponseType.ChannelMessageWithSource:
        exchange.original = this.createMessage(exchange, messageBody, files);
        break;
      case InteractionResponseType.DeferredChannelMessageWithSource:
        // Discord shows the deferred reply as "is thinking…" (the Loading flag) until the first edit.
        exchange.original = this.createMessage(exchange, messageBody, files, MessageFlags.Loading);
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
    const message = this.createMessage(exchange, (isRecord(call.json) ? call.json : {}) as MessageBody, files);
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
    const edited = this.patchMessage(existing, (isRecord(call.json) ? call.json : {}) as MessageBody, files);
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
