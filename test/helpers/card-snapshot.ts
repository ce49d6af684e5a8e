import { join } from 'node:path';
import { normaliseCards } from '../../src/cards/card.js';
import { CompactRecords } from '../../src/cards/compact-records.js';
import { SNAPSHOT_FILE, SNAPSHOT_FORMATS, snapshotHeader, writeSnapshot } from '../../src/services/card-snapshot.js';

/**
 * Writes a card database snapshot of `rawCards` into `dataDir`, exactly as the bot writes one after
 * a download, so a bot started on that DATA_DIR has its card database at once (and downloads
 * nothing while YGOPRODeck reports the same `version`). Returns the number of cards stored.
 */
export async function writeCardSnapshot(dataDir: string, rawCards: readonly unknown[], version: string): Promise<number> {
  const { cards, skipped } = normaliseCards(rawCards);
  const { body } = CompactRecords.of(cards);
  const header = snapshotHeader(
    { format: SNAPSHOT_FORMATS.cards, databaseVersion: version, downloadedAt: Date.now(), cardCount: cards.length, skippedCards: skipped },
    body,
  );
  await writeSnapshot(join(dataDir, 'cards'), SNAPSHOT_FILE, header, body);
  return cards.length;
}
