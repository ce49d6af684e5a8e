import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onceInRun } from './once-in-run.js';

describe('onceInRun', () => {
  let dir: string;
  let path: string;
  const read = () => readFile(path, 'utf8').catch(() => undefined);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'almanac-once-'));
    path = join(dir, 'made');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('makes it once however many ask at once, and gives every asker what was made', async () => {
    let makes = 0;
    const make = async () => {
      makes++;
      await delay(150);
      await writeFile(path, 'made once');
      return 'made once';
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => onceInRun(path, read, make)));
    expect(answers).toEqual(Array(5).fill('made once'));
    expect(makes).toBe(1);
  });

  it('lets a waiting asker make it when the maker failed', async () => {
    const failing = onceInRun(path, read, async () => {
      await delay(150);
      throw new Error('broken');
    });
    const waiting = onceInRun(path, read, async () => {
      await writeFile(path, 'second try');
      return 'second try';
    });
    await expect(failing).rejects.toThrow('broken');
    expect(await waiting).toBe('second try');
  });
});
