import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { CompactRecords } from '../../../src/cards/compact-records.js';
import { SNAPSHOT_FORMATS, snapshotHeader, writeSnapshot, type SnapshotHeader } from '../../../src/services/ygoprodeck/card-snapshot.js';
import { readFromSnapshotFile } from '../../../src/services/ygoprodeck/snapshot-bytes.js';

interface Row {
  id: number;
  name: string;
}

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A warning-collecting logger, so a fallback is seen. */
function collectingLogger(): { logger: pino.Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) });
  return { logger, warnings };
}

/** `rows` written as a snapshot in a fresh directory: the in-memory records, their body, header and file. */
async function written(rows: Row[], dir?: string): Promise<{ records: CompactRecords<Row>; body: Buffer; header: SnapshotHeader; path: string }> {
  const at = dir ?? (await mkdtemp(join(tmpdir(), 'almanac-snapshot-bytes-')));
  if (dir === undefined) dirs.push(at);
  const { body, starts } = CompactRecords.lines(rows);
  const header = await snapshotHeader({ format: SNAPSHOT_FORMATS.texts, databaseVersion: String(rows.length), downloadedAt: 0, cardCount: rows.length, skippedCards: 0 }, body);
  await writeSnapshot(at, 'cards.fr.snapshot', header, body);
  return { records: CompactRecords.written<Row>(body, starts), body, header, path: join(at, 'cards.fr.snapshot') };
}

const rows = (count: number, name: string): Row[] => Array.from({ length: count }, (_, id) => ({ id, name: `${name} ${id} — « é »` }));

describe('records read from their snapshot file', () => {
  it('read every record from the file, not from the body they were made of', async () => {
    const { records, body, header, path } = await written(rows(500, 'Magicien'));
    const { logger, warnings } = collectingLogger();
    const fromFile = readFromSnapshotFile(records, path, header, logger);
    expect(fromFile).not.toBe(records);
    // Were the body still read, every record would now fail to parse.
    body.fill(0);
    expect(Array.from({ length: fromFile.length }, (_, index) => fromFile.read(index))).toEqual(rows(500, 'Magicien'));
    expect(warnings).toEqual([]);
  });

  it('keep reading their own bytes after a newer snapshot replaces the file', async () => {
    const first = await written(rows(300, 'Old'));
    const { logger } = collectingLogger();
    const old = readFromSnapshotFile(first.records, first.path, first.header, logger);
    const second = await written(rows(400, 'New'), join(first.path, '..'));
    const current = readFromSnapshotFile(second.records, second.path, second.header, logger);
    expect([old.read(299), current.read(399)]).toEqual([{ id: 299, name: 'Old 299 — « é »' }, { id: 399, name: 'New 399 — « é »' }]);
  });

  it('stay in memory, with a warning, when the file is not the snapshot loaded', async () => {
    const first = await written(rows(50, 'A'));
    const second = await written(rows(60, 'B'), join(first.path, '..'));
    const { logger, warnings } = collectingLogger();
    // The file now holds the second snapshot: the first's records must not read it.
    expect(readFromSnapshotFile(first.records, first.path, first.header, logger)).toBe(first.records);
    expect(warnings).toEqual(['card snapshot: cannot read records from the file; they stay in memory']);
    await truncate(second.path, 100);
    expect(readFromSnapshotFile(second.records, second.path, second.header, logger)).toBe(second.records);
    expect(readFromSnapshotFile(second.records, join(first.path, '..', 'missing'), second.header, logger)).toBe(second.records);
    expect(warnings).toHaveLength(3);
  });
});
