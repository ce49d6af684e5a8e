import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TurnEach } from '../../src/discord/turn-each.js';

describe('TurnEach', () => {
  it('runs jobs pushed together in order, each in a turn of its own: what one job schedules runs before the next', async () => {
    const turns = new TurnEach(() => {});
    const seen: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      turns.push(() => {
        seen.push(name);
        setImmediate(() => seen.push(`after ${name}`));
      });
    }
    expect(seen).toEqual([]);
    await new Promise<void>((resolve) => turns.push(resolve));
    expect(seen).toEqual(['a', 'after a', 'b', 'after b', 'c', 'after c']);
  });

  it('lets a due timer run between two jobs of a burst', async () => {
    const turns = new TurnEach(() => {});
    const seen: string[] = [];
    setTimeout(() => seen.push('timer'), 0);
    const busy = (name: string) => () => {
      const until = performance.now() + 3;
      while (performance.now() < until);
      seen.push(name);
    };
    turns.push(busy('first'));
    turns.push(busy('second'));
    // Not a fixed sleep: on a busy machine its timer can fall due before the jobs have run.
    await new Promise<void>((resolve) => turns.push(resolve));
    expect(seen).toHaveLength(3);
    expect(seen.indexOf('timer')).toBeLessThan(seen.indexOf('second'));
  });

  it('hands what a job throws to onError and goes on, with the jobs pushed later too', async () => {
    const errors: unknown[] = [];
    const turns = new TurnEach((error) => errors.push(error));
    const seen: string[] = [];
    turns.push(() => {
      throw new Error('boom');
    });
    turns.push(() => seen.push('second'));
    await new Promise<void>((resolve) => turns.push(resolve));
    turns.push(() => seen.push('later'));
    await nextTurn();
    await nextTurn();
    expect(seen).toEqual(['second', 'later']);
    expect(errors).toEqual([new Error('boom')]);
  });
});
