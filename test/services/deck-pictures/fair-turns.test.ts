import { describe, expect, it } from 'vitest';
import { FairTurns, TurnsRefused } from '../../../src/services/deck-pictures/fair-turns.js';

/** A task that runs until `finish` is called, recording when it started. */
function heldTask(started: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: async () => { started.push(name); await done; return name; }, finish: () => finish() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('FairTurns', () => {
  it('runs one task at a time and tells a waiting task how many are ahead', async () => {
    const turns = new FairTurns({ atOnce: 1, perMember: 3, waitingAtMost: 10 });
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => heldTask(started, name));
    const waits: number[] = [];
    const results = [turns.run('ann', a!.task, (ahead) => waits.push(ahead)), turns.run('bob', b!.task, (ahead) => waits.push(ahead)), turns.run('cat', c!.task, (ahead) => waits.push(ahead))];
    await flush();
    expect(started).toEqual(['a']);
    expect(waits).toEqual([1, 2]);
    expect(turns.size).toEqual({ running: 1, waiting: 2 });
    a!.finish();
    await flush();
    expect(started).toEqual(['a', 'b']);
    b!.finish();
    c!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(turns.size).toEqual({ running: 0, waiting: 0 });
  });

  it('serves members in rotation: a member with three waiting tasks does not keep the next member behind all of them', async () => {
    const turns = new FairTurns({ atOnce: 1, perMember: 4, waitingAtMost: 10 });
    const started: string[] = [];
    const tasks = ['ann1', 'ann2', 'ann3', 'ann4', 'bob1'].map((name) => heldTask(started, name));
    const results = tasks.map((held, index) => turns.run(index < 4 ? 'ann' : 'bob', held.task));
    for (const held of tasks) {
      await flush();
      held.finish();
    }
    await Promise.all(results);
    expect(started).toEqual(['ann1', 'bob1', 'ann2', 'ann3', 'ann4']);
  });

  it('never runs two tasks of one member together, even with room for more', async () => {
    const turns = new FairTurns({ atOnce: 2, perMember: 3, waitingAtMost: 10 });
    const started: string[] = [];
    const [a1, a2, b1] = ['a1', 'a2', 'b1'].map((name) => heldTask(started, name));
    const results = [turns.run('ann', a1!.task), turns.run('ann', a2!.task), turns.run('bob', b1!.task)];
    await flush();
    expect(started).toEqual(['a1', 'b1']);
    a1!.finish();
    await flush();
    expect(started).toEqual(['a1', 'b1', 'a2']);
    a2!.finish();
    b1!.finish();
    await Promise.all(results);
  });

  it('refuses a member past their tasks, and anyone once the line is full, without running the task', async () => {
    const turns = new FairTurns({ atOnce: 1, perMember: 2, waitingAtMost: 2 });
    const started: string[] = [];
    const held = ['a1', 'a2', 'b1', 'c1'].map((name) => heldTask(started, name));
    const accepted = [turns.run('ann', held[0]!.task), turns.run('ann', held[1]!.task)];
    await expect(turns.run('ann', async () => 'never')).rejects.toEqual(new TurnsRefused('member'));
    accepted.push(turns.run('bob', held[2]!.task));
    await expect(turns.run('cat', held[3]!.task)).rejects.toMatchObject({ reason: 'full' });
    for (const task of held) task.finish();
    await Promise.all(accepted);
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('goes on after a task fails: the failure is its caller’s alone', async () => {
    const turns = new FairTurns({ atOnce: 1, perMember: 1, waitingAtMost: 5 });
    const failing = turns.run('ann', async () => {
      throw new Error('broken picture');
    });
    const next = turns.run('bob', async () => 'drawn');
    await expect(failing).rejects.toThrow('broken picture');
    expect(await next).toBe('drawn');
    expect(await turns.run('ann', async () => 'again')).toBe('again');
  });
});
