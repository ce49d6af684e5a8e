import { join } from 'node:path';
import { pino } from 'pino';
import { CARD_LANGUAGES } from '../../src/cards/card.js';
import { normaliseCards, type RawCard } from '../../src/cards/normalise-card.js';
import { CompactRecords } from '../../src/cards/compact-records.js';
import { SNAPSHOT_FILE, SNAPSHOT_FORMATS, snapshotHeader, writeSnapshot } from '../../src/services/card-snapshot.js';
import { LanguageTexts } from '../../src/services/card-texts.js';
import { translatedDump } from '../fakes/card-translations.js';

/**
 * Writes the card database snapshots of `rawCards` into `dataDir`, exactly as the bot writes them
 * after its downloads: English, and each language's texts as the fake YGOPRODeck translates them.
 * A bot started on that DATA_DIR has every card database at once (and downloads nothing while
 * YGOPRODeck reports the same `version`). Returns the number of English cards stored.
 */
export async function writeCardSnapshot(dataDir: string, rawCards: readonly RawCard[], version: string): Promise<number> {
  const dir = join(dataDir, 'cards');
  const { cards, skipped } = normaliseCards(rawCards);
  const { body } = CompactRecords.of(cards);
  const header = snapshotHeader(
    { format: SNAPSHOT_FORMATS.cards, databaseVersion: version, downloadedAt: Date.now(), cardCount: cards.length, skippedCards: skipped },
    body,
  );
  await writeSnapshot(dir, SNAPSHOT_FILE, header, body);
  for (const language of CARD_LANGUAGES) {
    const translated = normaliseCards(translatedDump(rawCards, language));
    await new LanguageTexts(language, dir, pino({ level: 'silent' }), Date.now).replace(translated.cards, translated.skipped, { version });
  }
  return cards.length;
}
