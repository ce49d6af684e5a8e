import { REDIS_INSTALL_HINT, redisServerInstalled } from './helpers/redis-server.js';

/** Says once per run, not once per file, that the Redis tests are skipped and how to enable them. */
export default function setup(): void {
  if (!redisServerInstalled && process.env.REQUIRE_REDIS !== '1') console.warn(REDIS_INSTALL_HINT);
}
