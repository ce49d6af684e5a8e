import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CARD_FORMAT_VERSION, normaliseCards } from '../../src/cards/card.js';
import { writeSnapshot } from '../../src/services/card-database.js';

/**
 * Writes a card database snapshot of `rawCards` into `dataDir`, exactly as the bot writes one after
 * a download, so a bot started on that DATA_DIR has its card database at once (and downloads
 * nothing while YGOPRODeck reports the same `version`). Returns the number of cards stored.
 */
export async function writeCardSnapshot(dataDir: string, rawCards: readonly unknown[], version: string): Promise<number> {
  const { cards, skipped } = normaliseCards(rawCards);
  const body = Buffer.from(JSON.stringify(cards));
  await writeSnapshot(
    join(dataDir, 'cards'),
    {
      format: 'almanac-cards',
      cardFormat: CARD_FORMAT_VERSION,
      databaseVersion: version,
      downloadedAt: Date.now(),
      cardCount: cards.length,
      skippedCards: skipped,
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    },
    body,
  );
  return cards.length;
}
