import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordClient } from '../../src/discord/client.js';
import { describeDiscordFailure } from '../../src/runtime/discord-failure.js';
import { destroyClientWhenSettled } from '../helpers/discord-client.js';

describe('a Discord that does not answer', () => {
  let silent: Server | undefined;

  afterEach(() => {
    silent?.close();
  });

  it('is described as "did not answer within N s at <url>", not "This operation was aborted"', async () => {
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
    // The real client and REST stack, with a short timeout (production: 15 s per try, 3 retries).
    const client = createDiscordClient({ apiUrl, rest: { timeout: 400, retries: 1 } });
    const started = Date.now();
    const error = await client.login('any-token-value-123456').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await destroyClientWhenSettled(client);
    expect((error as Error).message).toBe('This operation was aborted');
    expect(describeDiscordFailure(error, { apiUrl, elapsedMs: Date.now() - started })).toBe(
      `Discord did not answer within ${Math.max(1, Math.round((Date.now() - started) / 1000))} s at ${apiUrl}: check the network, a proxy, or DISCORD_API_URL.`,
    );
  });
});
