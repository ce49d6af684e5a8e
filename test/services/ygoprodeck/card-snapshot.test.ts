import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSnapshot, SNAPSHOT_FORMATS, snapshotHeader, writeSnapshot } from '../../../src/services/ygoprodeck/card-snapshot.js';

// Larger than a few of the slices the checksum is computed in, and not a whole number of them.
const body = randomBytes(2.5 * 1024 * 1024);
const dirs: string[] = [];

afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('snapshot checksum', () => {
  it('of a body hashed a slice at a time is the SHA-256 of the whole body, and reads back', async () => {
    const header = await snapshotHeader({ format: SNAPSHOT_FORMATS.cards, databaseVersion: '1.00', downloadedAt: 0, cardCount: 1, skippedCards: 0 }, body);
    expect(header.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(header.bytes).toBe(body.length);
    const dir = await mkdtemp(join(tmpdir(), 'almanac-snapshot-'));
    dirs.push(dir);
    await writeSnapshot(dir, 'cards.snapshot', header, body);
    const read = await readSnapshot(join(dir, 'cards.snapshot'), SNAPSHOT_FORMATS.cards);
    expect(read.body.equals(body)).toBe(true);
    expect(read.header.sha256).toBe(header.sha256);
  });

  it('catches a byte changed in the last slice', async () => {
    const header = await snapshotHeader({ format: SNAPSHOT_FORMATS.cards, databaseVersion: '1.00', downloadedAt: 0, cardCount: 1, skippedCards: 0 }, body);
    const changed = Buffer.from(body);
    changed[changed.length - 1]! ^= 1;
    const dir = await mkdtemp(join(tmpdir(), 'almanac-snapshot-'));
    dirs.push(dir);
    await writeSnapshot(dir, 'cards.snapshot', header, changed);
    await expect(readSnapshot(join(dir, 'cards.snapshot'), SNAPSHOT_FORMATS.cards)).rejects.toThrow('checksum mismatch');
  });
});
