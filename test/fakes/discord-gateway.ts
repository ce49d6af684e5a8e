import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { GatewayDispatchEvents, GatewayOpcodes, type GatewayGuildCreateDispatchData } from 'discord.js';
import { APPLICATION_ID, BOT_USER, guildCreate, shardOf, type FakeGuild } from './discord-guilds.js';

/**
 * The fake Discord's gateway: HELLO, IDENTIFY (per shard), RESUME with replay, heartbeats, and the
 * dispatches of each session. A guild's events go to the session of its shard, as on Discord.
 */

export interface FakeGatewayOptions {
  server: Server;
  /** The interval announced in HELLO. */
  heartbeatIntervalMs: number;
  guilds: readonly FakeGuild[];
  /** Each guild's GUILD_CREATE (default: the test guild's, `guildCreate`). */
  guildCreate?: (guild: FakeGuild) => GatewayGuildCreateDispatchData;
  /** Whether an IDENTIFY or RESUME token is the bot's. */
  acceptsToken: (token: unknown) => boolean;
  /** The `ws://` URL clients resume on. */
  url: () => string;
  /** Emits 'change' after every state change that a test may be waiting for. */
  changes: EventEmitter;
}

/** One gateway session as a test sees it. */
export interface GatewaySessionInfo {
  /** `[shard_id, shard_count]` from the IDENTIFY. */
  shard: [number, number];
  connected: boolean;
  /** The guilds READY announced to this session. */
  guildIds: string[];
  /** The `intents` bit field of the IDENTIFY. */
  intents: number;
}

interface GatewayDispatch {
  op: GatewayOpcodes.Dispatch;
  t: string;
  s: number;
  d: unknown;
}

interface GatewaySession {
  id: string;
  shard: [number, number];
  guildIds: string[];
  intents: number;
  sequence: number;
  /** The authenticated socket, absent while the client is reconnecting. */
  socket?: WebSocket;
  /** Everything dispatched on this session, so a RESUME can replay what the client missed. */
  history: GatewayDispatch[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `[shard_id, shard_count]` of an IDENTIFY, `[0, 1]` when absent or malformed. */
function shardOfIdentify(payload: Record<string, unknown>): [number, number] {
  const [id, count] = Array.isArray(payload.shard) ? (payload.shard as unknown[]) : [];
  const valid = Number.isInteger(id) && Number.isInteger(count) && (count as number) > 0 && (id as number) < (count as number);
  return valid ? [id as number, count as number] : [0, 1];
}

export class FakeGateway {
  identifyCount = 0;
  resumeCount = 0;
  /** Off, dispatches are not kept for a RESUME to replay (see `FakeDiscord.keepHistory`). */
  keepHistory = true;

  private readonly server: WebSocketServer;
  private readonly sessions = new Map<string, GatewaySession>();
  /** The session identified or resumed last: where `dispatch()`, `closeSocket()`… act. */
  private currentSession?: GatewaySession;
  private readonly zombieSockets = new WeakSet<WebSocket>();

  constructor(private readonly options: FakeGatewayOptions) {
    this.server = new WebSocketServer({ server: options.server });
    this.server.on('connection', (socket) => this.accept(socket));
  }

  /** Sends a dispatch on the current session (kept for replay on RESUME when no socket is open). */
  dispatch(eventName: string, data: unknown): void {
    const session = this.currentSession;
    if (!session) throw new Error('dispatch() needs a client that has identified; await fake.ready() first');
    this.dispatchOn(session, eventName, data);
  }

  /** Sends a dispatch on the connected session of `guildId`'s shard (shard 0 for a DM). */
  dispatchForGuild(guildId: string | undefined, eventName: string, data: unknown): void {
    const session = this.sessionForGuild(guildId);
    if (!session) throw new Error(`no connected session runs the shard of guild ${guildId ?? '(DM)'}`);
    this.dispatchOn(session, eventName, data);
  }

  /** The connected session whose shard receives `guildId`'s events, if any. */
  liveSessionForGuild(guildId: string | undefined): GatewaySessionInfo | undefined {
    const session = this.sessionForGuild(guildId);
    return session && this.describe(session);
  }

  /** The session identified or resumed last, when its socket is open. */
  liveSession(): GatewaySessionInfo | undefined {
    const session = this.currentSession;
    return session && this.isLive(session) ? this.describe(session) : undefined;
  }

  sessionInfos(): GatewaySessionInfo[] {
    return [...this.sessions.values()].map((session) => this.describe(session));
  }

  closeSocket(code: number): void {
    const session = this.currentSession;
    if (!session?.socket || !this.isLive(session)) throw new Error('closeSocket(): no client is connected');
    const { socket } = session;
    // Detach first so that interactions wait for the reconnect instead of going to a closing socket.
    session.socket = undefined;
    socket.close(code);
  }

  stopHeartbeatAcks(): void {
    const session = this.currentSession;
    if (!session?.socket || !this.isLive(session)) throw new Error('stopHeartbeatAcks(): no client is connected');
    this.zombieSockets.add(session.socket);
  }

  async close(): Promise<void> {
    for (const socket of this.server.clients) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The latest connected session that runs `guildId`'s shard, by the shard count it identified with. */
  private sessionForGuild(guildId: string | undefined): GatewaySession | undefined {
    return [...this.sessions.values()]
      .reverse()
      .find((session) => this.isLive(session) && session.shard[0] === shardOf(guildId, session.shard[1]));
  }

  private isLive(session: GatewaySession): boolean {
    return session.socket?.readyState === WebSocket.OPEN;
  }

  private describe(session: GatewaySession): GatewaySessionInfo {
    return { shard: [...session.shard], connected: this.isLive(session), guildIds: [...session.guildIds], intents: session.intents };
  }

  private dispatchOn(session: GatewaySession, eventName: string, data: unknown): void {
    const payload: GatewayDispatch = { op: GatewayOpcodes.Dispatch, t: eventName, s: ++session.sequence, d: data };
    if (this.keepHistory) session.history.push(payload);
    if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(JSON.stringify(payload));
  }

  private accept(socket: WebSocket): void {
    socket.on('message', (raw) => this.onMessage(socket, raw));
    socket.on('close', () => {
      for (const session of this.sessions.values()) if (session.socket === socket) session.socket = undefined;
      this.options.changes.emit('change');
    });
    this.send(socket, { op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs } });
  }

  private onMessage(socket: WebSocket, raw: RawData): void {
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
    if (!this.options.acceptsToken(payload.token)) {
      socket.close(4004, 'Authentication failed.');
      return;
    }
    const shard = shardOfIdentify(payload);
    const guilds = this.options.guilds.filter((guild) => shardOf(guild.id, shard[1]) === shard[0]);
    const session: GatewaySession = {
      id: randomBytes(16).toString('hex'),
      shard,
      guildIds: guilds.map((guild) => guild.id),
      intents: typeof payload.intents === 'number' ? payload.intents : 0,
      sequence: 0,
      history: [],
      socket,
    };
    this.sessions.set(session.id, session);
    this.currentSession = session;
    this.identifyCount++;
    this.dispatchOn(session, GatewayDispatchEvents.Ready, {
      v: 10,
      user: { ...BOT_USER, verified: true, mfa_enabled: false, flags: 0 },
      // Unavailable until GUILD_CREATE, as on Discord; discord.js waits for that GUILD_CREATE.
      guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.options.url(),
      shard,
      application: { id: APPLICATION_ID, flags: 0 },
    });
    const create = this.options.guildCreate ?? guildCreate;
    for (const guild of guilds) this.dispatchOn(session, GatewayDispatchEvents.GuildCreate, create(guild));
    this.options.changes.emit('change');
  }

  private resume(socket: WebSocket, payload: Record<string, unknown>): void {
    const session = typeof payload.session_id === 'string' ? this.sessions.get(payload.session_id) : undefined;
    if (!session || !this.options.acceptsToken(payload.token)) {
      // d: false tells the client the session cannot be resumed and it must identify afresh.
      this.send(socket, { op: GatewayOpcodes.InvalidSession, d: false });
      return;
    }
    const clientSequence = typeof payload.seq === 'number' ? payload.seq : 0;
    session.socket = socket;
    this.currentSession = session;
    this.resumeCount++;
    for (const missed of session.history.filter((dispatch) => dispatch.s > clientSequence)) this.send(socket, missed);
    this.dispatchOn(session, GatewayDispatchEvents.Resumed, {});
    this.options.changes.emit('change');
  }

  private send(socket: WebSocket, payload: unknown): void {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
  }
}
