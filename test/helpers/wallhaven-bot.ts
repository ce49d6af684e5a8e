import { createLocalLimiter } from '../../src/upstream/limiter.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from './bot.js';

/**
 * A bot over a fake Wallhaven with an API key, for listing tests: its limiter 20 times faster (the
 * count per window is what the limit is about; test/e2e/wallpaper.test.ts shows the real spacing
 * holds) and a member share no test spends.
 */
export async function startListingsBot(): Promise<{ bot: TestBot; fake: FakeWallhaven }> {
  const fake = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY, rateLimit: { limit: 45, windowMs: 3_000 } });
  const bot = await startTestBot({
    env: { WALLHAVEN_URL: fake.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY },
    overrides: {
      limiterFactory: (options) => createLocalLimiter({ ...options, minTimeMs: options.minTimeMs / 20 }),
      memberShares: { wallhaven: { limit: 10_000 } },
    },
  });
  return { bot, fake };
}
