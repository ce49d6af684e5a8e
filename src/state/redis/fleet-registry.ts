import type { Logger } from 'pino';
import type { FleetRegistry } from '../shared-state.js';
import type { FleetMember, FleetUpstreamReport } from '../../runtime/status-report.js';
import type { SharedConnection } from './connection.js';

/** Each process writes its heartbeat this often; a process silent for `STALE_AFTER_MS` is gone. */
const HEARTBEAT_INTERVAL_MS = 5_000;
const STALE_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;

interface FleetHeartbeatOptions {
  connection: SharedConnection;
  keyPrefix: string;
  processId: string;
  logger: Logger;
  /** This process's upstream figures (requests in the last minute, queue, pause). */
  upstreams: () => FleetUpstreamReport[];
  /** The fleet size assumed before any heartbeat was read (e.g. SHARD_COUNT). */
  expectedSize?: number;
  now?: () => number;
}

/**
 * The fleet's registry: one hash field per process (`fleet`), refreshed by a heartbeat, read by
 * /status. It also remembers the last live count it saw: while Redis is unreachable each process
 * divides every budget by it.
 */
export class FleetHeartbeat implements FleetRegistry {
  private describe: () => Pick<FleetMember, 'shards' | 'guilds'> = () => ({ shards: [], guilds: 0 });
  private readonly timer: NodeJS.Timeout;
  private readonly key: string;
  private readonly now: () => number;
  private lastKnownSize: number;

  constructor(private readonly options: FleetHeartbeatOptions) {
    this.key = `${options.keyPrefix}fleet`;
    this.now = options.now ?? Date.now;
    this.lastKnownSize = Math.max(1, options.expectedSize ?? 2);
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_INTERVAL_MS);
    this.timer.unref();
    options.connection.on('up', () => void this.beat());
  }

  /** What each budget is divided by while Redis is unreachable. */
  get fallbackShare(): number {
    return this.lastKnownSize;
  }

  describeWith(describe: () => Pick<FleetMember, 'shards' | 'guilds'>): void {
    this.describe = describe;
  }

  self(): FleetMember {
    return { processId: this.options.processId, ...this.describe(), seenAt: this.now(), upstreams: this.options.upstreams() };
  }

  async members(): Promise<FleetMember[]> {
    if (!this.options.connection.isUp) return [this.self()];
    try {
      return await this.readLive();
    } catch {
      return [this.self()];
    }
  }

  /** Writes this process's heartbeat and refreshes the known fleet size. */
  async beat(): Promise<void> {
    if (!this.options.connection.isUp) return;
    try {
      await this.options.connection.client.hset(this.key, this.options.processId, JSON.stringify(this.self()));
      await this.readLive();
    } catch (error) {
      this.options.logger.debug({ err: error }, 'fleet heartbeat failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.options.connection.isUp) await this.options.connection.client.hdel(this.key, this.options.processId).catch(() => undefined);
  }

  private async readLive(): Promise<FleetMember[]> {
    const entries = await this.options.connection.client.hgetall(this.key);
    const live: FleetMember[] = [];
    const gone: string[] = [];
    for (const [processId, text] of Object.entries(entries)) {
      let member: FleetMember | undefined;
      try {
        member = JSON.parse(text) as FleetMember;
      } catch {
        member = undefined;
      }
      // This process reports itself as it is now, not as its last heartbeat said.
      if (processId === this.options.processId) continue;
      if (member !== undefined && this.now() - member.seenAt <= STALE_AFTER_MS) live.push(member);
      else gone.push(processId);
    }
    if (gone.length > 0) await this.options.connection.client.hdel(this.key, ...gone);
    live.push(this.self());
    this.lastKnownSize = live.length;
    return live.sort((left, right) => left.processId.localeCompare(right.processId));
  }
}
