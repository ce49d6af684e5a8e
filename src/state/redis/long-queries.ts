import { LongQueryStore } from '../../wallpaper/pager-state.js';
import type { QueryTextStore } from '../shared-state.js';
import type { SharedConnection } from './connection.js';

/** As in process: a pager idle 10 minutes is expired anyway, so its query may go 30 minutes after its last use. */
const QUERY_TTL_MS = 30 * 60_000;

/** Long pager queries in Redis, so a button pressed on any process finds the query; also kept locally for when Redis is lost. */
export function createFleetQueryStore(connection: SharedConnection, keyPrefix: string): QueryTextStore {
  const local = new LongQueryStore({ ttlMs: QUERY_TTL_MS });
  const keyOf = (key: string) => `${keyPrefix}query:${key}`;
  return {
    async remember(text) {
      const key = local.remember(text);
      if (connection.isUp) await connection.client.set(keyOf(key), text, 'PX', QUERY_TTL_MS).catch(() => undefined);
      return key;
    },
    async recall(key) {
      if (connection.isUp) {
        try {
          const text = await connection.client.getex(keyOf(key), 'PX', QUERY_TTL_MS);
          if (text !== null) return text;
        } catch {
          // Fall back to this process's own copy.
        }
      }
      return local.recall(key);
    },
  };
}
