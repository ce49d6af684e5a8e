import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DROP_SUMMARY_INTERVAL_MS, DroppedRequests, type DroppedReason } from '../../src/http/dropped-requests.js';
import { LogCapture } from '../helpers/log-capture.js';

describe('DroppedRequests: a counter each, one summary line a minute', () => {
  let logs: LogCapture;
  let counted: DroppedReason[];
  let dropped: DroppedRequests;
  const summaries = () => logs.entries().filter((line) => (line.level as number) >= 30);

  beforeEach(() => {
    vi.useFakeTimers();
    logs = new LogCapture();
    counted = [];
    dropped = new DroppedRequests({ log: pino({ level: 'info' }, logs), count: (reason) => counted.push(reason) });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts every drop at once and sums them up in one line when the minute is over', () => {
    for (let index = 0; index < 500; index++) dropped.drop('incomplete', { err: new Error('aborted') });
    dropped.drop('replayed');
    expect(counted).toHaveLength(501);
    expect(summaries()).toEqual([]);
    vi.advanceTimersByTime(DROP_SUMMARY_INTERVAL_MS);
    expect(summaries()).toMatchObject([
      { level: 40, msg: '501 interactions requests dropped in the last minute (500 incomplete, 1 replayed)', dropped: { incomplete: 500, replayed: 1 } },
    ]);
    expect(logs.text).not.toContain('stack');
  });

  it('starts a new minute with the next drop, says nothing about a quiet one, and says what is left on close', () => {
    dropped.drop('incomplete');
    vi.advanceTimersByTime(DROP_SUMMARY_INTERVAL_MS);
    vi.advanceTimersByTime(10 * DROP_SUMMARY_INTERVAL_MS);
    expect(summaries()).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    dropped.drop('replayed');
    dropped.flush();
    expect(summaries().map((line) => line.msg)).toEqual([
      '1 interactions requests dropped in the last minute (1 incomplete)',
      '1 interactions requests dropped in the last minute (1 replayed)',
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
