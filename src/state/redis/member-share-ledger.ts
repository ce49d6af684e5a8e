import { randomUUID } from 'node:crypto';
import { LocalMemberShareLedger, type MemberShareLedger, type MemberShareLedgerOptions } from '../member-share-ledger.js';
import type { SharedConnection } from './connection.js';

/**
 * One member's uses in a sorted set scored by time: drop those out of the window, refuse with the
 * wait when `limit` remain, else record this one. Atomic, so two processes cannot both take the last use.
 */
const TAKE_USE = `
redis.call('zremrangebyscore', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('zrange', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1])
end
redis.call('zadd', KEYS[1], ARGV[1], ARGV[4])
redis.call('pexpire', KEYS[1], ARGV[2])
return -1
`;

/**
 * A member share's ledger counted by the whole fleet, with the same rules as
 * `LocalMemberShareLedger`. While Redis is unreachable each process counts on its own (the
 * upstream's own budget still holds through the limiters' local shares). The key keeps its old
 * `budget:` name: a rolling deploy's processes must count in the same place.
 */
export function createFleetMemberShareLedger(connection: SharedConnection, keyPrefix: string, options: MemberShareLedgerOptions): MemberShareLedger {
  const local = new LocalMemberShareLedger(options);
  const now = options.now ?? Date.now;
  return {
    limit: local.limit,
    windowMs: local.windowMs,
    async take(userId) {
      if (!connection.isUp) return local.take(userId);
      const at = now();
      try {
        const wait = Number(
          await connection.client.eval(TAKE_USE, 1, `${keyPrefix}budget:${options.name}:${userId}`, at, local.windowMs, local.limit, `${at}:${randomUUID()}`),
        );
        return wait < 0 ? { allowed: true } : { allowed: false, retryAfterMs: Math.max(1, wait) };
      } catch {
        return local.take(userId);
      }
    },
  };
}
