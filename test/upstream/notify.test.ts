import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { notifyAll } from '../../src/upstream/notify.js';
import { LogCapture } from '../helpers/log-capture.js';

describe('notifyAll', () => {
  it('calls every listener with the value, logging one that throws and still calling the rest', () => {
    const logs = new LogCapture();
    const seen: string[] = [];
    const listeners = [
      (value: number) => seen.push(`a${value}`),
      () => {
        throw new Error('broken listener');
      },
      (value: number) => seen.push(`c${value}`),
    ];
    notifyAll(listeners, 7, pino(logs), 'a listener failed');
    expect(seen).toEqual(['a7', 'c7']);
    expect(logs.entries()).toMatchObject([{ msg: 'a listener failed', err: { message: 'broken listener' } }]);
  });
});
