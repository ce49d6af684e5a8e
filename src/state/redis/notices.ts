import type { Logger } from 'pino';
import type { NoticeChannel } from '../shared-state.js';
import type { SharedConnection } from './connection.js';

/**
 * Notices on Redis pub/sub (`<prefix>notice:<name>`), on the subscriber connection the limiters'
 * pauses already use. Each carries its sender's process id, so a process skips its own. Pub/sub
 * keeps nothing for a process that was cut off: when Redis is reachable again, `resync` runs.
 */
export function createFleetNotices(connection: SharedConnection, keyPrefix: string, name: string, processId: string, logger: Logger): NoticeChannel {
  const channel = `${keyPrefix}notice:${name}`;
  return {
    async publish(text) {
      if (!connection.isUp) return;
      try {
        await connection.client.publish(channel, JSON.stringify({ from: processId, text }));
      } catch (error) {
        logger.warn({ err: error, notice: name }, 'could not send a notice to the fleet');
      }
    },
    subscribe(listener, resync) {
      connection.subscriber.on('message', (from: string, message: string) => {
        if (from !== channel) return;
        try {
          const notice = JSON.parse(message) as { from?: unknown; text?: unknown };
          if (notice.from !== processId && typeof notice.text === 'string') listener(notice.text);
        } catch {
          // Not one of ours: nothing to do.
        }
      });
      // Without an offline queue a subscription is only possible while connected: (re)subscribe on each 'up'.
      const subscribe = () => connection.subscriber.subscribe(channel).catch(() => undefined);
      if (connection.isUp) void subscribe();
      connection.on('up', () => {
        void subscribe();
        resync();
      });
    },
  };
}
