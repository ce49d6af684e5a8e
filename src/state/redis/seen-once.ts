import { createLocalSeenOnce } from '../in-process.js';
import type { SeenOnce, SeenOnceOptions } from '../shared-state.js';
import type { SharedConnection } from './connection.js';

/**
 * Keys seen by any process of the fleet: `SET NX` with the key's lifetime, so of two processes seeing
 * the same key only one hears "first". Each process also remembers what it saw itself: a repeat to the
 * same process costs no round trip, and while Redis is unreachable each process still refuses its own
 * repeats (a repeat sent to another process then counts as first: an interaction is never held for Redis).
 */
export function createFleetSeenOnce(connection: SharedConnection, keyPrefix: string, options: SeenOnceOptions, now?: () => number): SeenOnce {
  const local = createLocalSeenOnce(options, now);
  return {
    async firstTime(key) {
      if (!(await local.firstTime(key))) return false;
      if (!connection.isUp) return true;
      try {
        return (await connection.client.set(`${keyPrefix}seen:${options.name}:${key}`, '1', 'PX', options.ttlMs, 'NX')) === 'OK';
      } catch {
        return true;
      }
    },
  };
}
