import { describe, expect, it } from 'vitest';
import { ReplyTracker } from '../../src/inline/reply-tracker.js';

describe('ReplyTracker', () => {
  it('forgets an answer once its message is older than the follow time, counted from when it arrived', () => {
    let now = 1_000_000;
    const tracker = new ReplyTracker({ ttlMs: 300_000, max: 10, now: () => now });
    tracker.set('m1', { channelId: 'c', replyId: 'r1', names: 'ash' }, now - 100_000);
    now += 199_999;
    expect(tracker.get('m1')?.replyId).toBe('r1');
    tracker.update('m1', 'veiler');
    expect(tracker.get('m1')?.names).toBe('veiler');
    now += 2;
    expect(tracker.get('m1')).toBeUndefined();
  });

  it('runs the work on one message one piece at a time, in order, and says while some is under way', async () => {
    const tracker = new ReplyTracker({ ttlMs: 1_000, max: 10, now: Date.now });
    const order: string[] = [];
    let release!: () => void;
    const first = tracker.serially('m', () => new Promise<void>((resolve) => (release = resolve)).then(() => void order.push('first')));
    const second = tracker.serially('m', async () => void order.push('second'));
    const failing = tracker.serially('m', () => Promise.reject(new Error('ignored')));
    const other = tracker.serially('n', async () => void order.push('other'));
    await other;
    expect(tracker.busy('m')).toBe(true);
    release();
    await Promise.all([first, second, failing]);
    expect(order).toEqual(['other', 'first', 'second']);
    await Promise.resolve();
    expect(tracker.busy('m')).toBe(false);
  });

  it('keeps at most `max` answers, the oldest forgotten first', () => {
    const tracker = new ReplyTracker({ ttlMs: 1_000, max: 2, now: Date.now });
    for (const id of ['a', 'b', 'c']) tracker.set(id, { channelId: 'c', replyId: `r${id}`, names: id }, Date.now());
    expect(tracker.get('a')).toBeUndefined();
    expect(tracker.get('c')?.replyId).toBe('rc');
  });
});
