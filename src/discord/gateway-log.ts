import { Events, type Client } from 'discord.js';
import type { Logger } from 'pino';

/**
 * One log line per gateway state change, each saying what it cost. A resume replays what was missed
 * (interactions sent meanwhile are still answered); a reconnect with a new session does not (anything
 * sent during the gap is lost), so the two are logged apart, and the drop that started either.
 */
export function logGatewayLifecycle(client: Client, logger: Logger): void {
  const seenReady = new Set<number>();
  client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway connection lost, reconnecting'));
  client.on(Events.ShardResume, (shardId, replayedEvents) => logger.info({ shardId, replayedEvents }, 'gateway resumed'));
  client.on(Events.ShardReady, (shardId) => {
    if (!seenReady.has(shardId)) {
      seenReady.add(shardId);
      logger.info({ shardId }, 'gateway shard ready');
      return;
    }
    logger.warn({ shardId }, 'gateway reconnected with a new session (events sent while away are lost)');
  });
  client.on(Events.ShardError, (error, shardId) => logger.error({ err: error, shardId }, 'gateway shard error'));
  client.on(Events.ShardDisconnect, (event, shardId) => logger.error({ code: event.code, shardId }, 'gateway disconnected for good'));
}
