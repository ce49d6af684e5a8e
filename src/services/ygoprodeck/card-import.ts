import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { normaliseCards } from '../../cards/normalise-card.js';
import { StartupError } from '../../runtime/startup-error.js';
import { CompactRecords } from '../../cards/compact-records.js';
import { SNAPSHOT_FILE, SNAPSHOT_FORMATS, snapshotDirectory, snapshotHeader, writeSnapshot } from './card-snapshot.js';

const decompress = promisify(brotliDecompress);

interface CardImportResult {
  cards: number;
  skipped: number;
  /** The `databaseVersion` the snapshot carries: `import-` and the dump's checksum prefix. */
  version: string;
}

/**
 * Seeds `DATA_DIR`'s card database from a saved `cardinfo.php` response, without any network: the
 * body as YGOPRODeck sends it (`{"data":[…]}`) or a bare array of cards, plain `.json` or brotli
 * `.json.br`. The snapshot is written atomically by the same writer as a download, so a failed import
 * leaves the previous database in place. The version is made up (YGOPRODeck's is not in the dump),
 * so a bot that can reach YGOPRODeck replaces the import with a fresh download at its first check.
 */
export async function importCardDump(file: string, dataDir: string, now: () => number = Date.now): Promise<CardImportResult> {
  let raw: Buffer;
  try {
    raw = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StartupError(code === 'ENOENT' ? `${file} does not exist.` : `cannot read ${file} (${code ?? 'error'}).`, { cause: error });
  }
  let text: string;
  try {
    text = (file.endsWith('.br') ? await decompress(raw) : raw).toString('utf8');
  } catch (error) {
    throw new StartupError(`${file} is not brotli-compressed (a .br file must be; rename a plain JSON file to .json).`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StartupError(`${file} is not JSON (truncated download?).`, { cause: error });
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new StartupError(`${file} holds neither {"data":[…]} (a cardinfo.php response) nor an array of cards.`);
  const { cards, skipped } = normaliseCards(list);
  if (cards.length === 0) throw new StartupError(`${file} holds no valid card (${skipped} failed validation).`);
  const version = `import-${createHash('sha256').update(raw).digest('hex').slice(0, 12)}`;
  const { body } = CompactRecords.lines(cards);
  const header = await snapshotHeader({ format: SNAPSHOT_FORMATS.cards, databaseVersion: version, downloadedAt: now(), cardCount: cards.length, skippedCards: skipped }, body);
  await writeSnapshot(snapshotDirectory(dataDir), SNAPSHOT_FILE, header, body);
  return { cards: cards.length, skipped, version };
}
