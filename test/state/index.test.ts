import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createSharedState } from '../../src/state/index.js';

describe('createSharedState', () => {
  it('keeps the state in this process without REDIS_URL, under the process id given', async () => {
    const state = await createSharedState({ redisUrl: undefined, logger: pino({ level: 'silent' }), processId: 'bot-1' });
    expect(state.backend).toBe('in-process');
    expect(state.processId).toBe('bot-1');
    await state.close();
  });

  it('names a process by host, pid and a random tag, so that two apps in one process stay apart', async () => {
    const logger = pino({ level: 'silent' });
    const [first, second] = await Promise.all([createSharedState({ redisUrl: undefined, logger }), createSharedState({ redisUrl: undefined, logger })]);
    expect(first.processId).toMatch(new RegExp(`-${process.pid}-[0-9a-f]{4}$`));
    expect(first.processId).not.toBe(second.processId);
    await Promise.all([first.close(), second.close()]);
  });
});
