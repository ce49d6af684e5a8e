import { createLocalChannelHistory } from '../in-process.js';
import type { ChannelHistory, ChannelHistoryOptions } from '../shared-state.js';
import type { SharedConnection } from './connection.js';

/** A channel idle this long forgets its history in Redis. */
const HISTORY_TTL_MS = 24 * 60 * 60_000;

/** A channel's last picks as a capped Redis list, so any process avoids what another just showed; local while Redis is unreachable. */
export function createFleetChannelHistory(connection: SharedConnection, keyPrefix: string, options: ChannelHistoryOptions): ChannelHistory {
  const local = createLocalChannelHistory(options);
  const key = (channelId: string) => `${keyPrefix}history:${options.name}:${channelId}`;
  return {
    async recent(channelId) {
      if (!connection.isUp || options.length === 0) return local.recent(channelId);
      try {
        return (await connection.client.lrange(key(channelId), 0, -1)).map(Number);
      } catch {
        return local.recent(channelId);
      }
    },
    async add(channelId, id) {
      await local.add(channelId, id);
      if (!connection.isUp || options.length === 0) return;
      try {
        await connection.client.multi().rpush(key(channelId), id).ltrim(key(channelId), -options.length, -1).pexpire(key(channelId), HISTORY_TTL_MS).exec();
      } catch {
        // The local copy still avoids repeats from this process.
      }
    },
  };
}
