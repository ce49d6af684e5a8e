import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { CARD_LANGUAGES } from '../../src/cards/card.js';
import { normaliseCards, type RawCard } from '../../src/cards/normalise-card.js';
import { CompactRecords } from '../../src/cards/compact-records.js';
import { SNAPSHOT_FILE, SNAPSHOT_FORMATS, snapshotHeader, writeSnapshot } from '../../src/services/ygoprodeck/card-snapshot.js';
import { LanguageTexts } from '../../src/services/ygoprodeck/card-texts.js';
import { compactCardinfoBody } from '../../src/services/off-thread/compact-download.js';
import { translatedDump } from '../fakes/card-translations.js';
import { asDownloaded, genesysDump } from '../fakes/ygoprodeck.js';
import { GenesysPoints } from '../../src/services/ygoprodeck/card-genesys.js';
import { inRunFolder, onceInRun } from './once-in-run.js';

/**
 * Writes the card database snapshots of `rawCards` into `dataDir`, exactly as the bot writes them
 * after its downloads: English, each language's texts as the fake YGOPRODeck translates them, and
 * the Genesys pool with the fake's points.
 * A bot started on that DATA_DIR has every card database at once (and downloads nothing while
 * YGOPRODeck reports the same `version`). Returns the number of English cards stored.
 */
export async function writeCardSnapshot(dataDir: string, rawCards: readonly RawCard[], version: string): Promise<number> {
  const dir = join(dataDir, 'cards');
  // Built once per run: the full dump's five databases take seconds of CPU, and several files start a bot on them.
  const cacheDir = inRunFolder(snapshotKey(rawCards, version));
  if (cacheDir === undefined) return buildSnapshot(dir, rawCards, version);
  const cached = await cachedSnapshot(cacheDir, rawCards, version);
  await cp(cached.dir, dir, { recursive: true });
  return cached.cardCount;
}

async function buildSnapshot(dir: string, rawCards: readonly RawCard[], version: string): Promise<number> {
  // With the formats, Master Duel fields and Konami ids the download's `misc=yes` adds.
  const { cards, skipped } = normaliseCards(rawCards.map(asDownloaded));
  const { body } = CompactRecords.lines(cards);
  const header = await snapshotHeader(
    { format: SNAPSHOT_FORMATS.cards, databaseVersion: version, downloadedAt: Date.now(), cardCount: cards.length, skippedCards: skipped },
    body,
  );
  await writeSnapshot(dir, SNAPSHOT_FILE, header, body);
  for (const language of CARD_LANGUAGES) {
    const texts = translatedDump(rawCards, language).map(textFields);
    const translated = compactCardinfoBody(Buffer.from(JSON.stringify({ data: texts })), 'texts');
    await new LanguageTexts(language, dir, pino({ level: 'silent' }), Date.now).replace(translated, { version });
  }
  const genesys = compactCardinfoBody(Buffer.from(JSON.stringify({ data: genesysDump(rawCards) })), 'genesys');
  await new GenesysPoints(dir, pino({ level: 'silent' }), Date.now).replace(genesys, { version });
  return cards.length;
}

/**
 * The fields of a language's card that its texts are made of (`translationOf`, the schema's required
 * ones): what the bot keeps of the language's download is the same without the rest (sets, prices,
 * images), whose parse took 2.6 of the snapshot build's 7.5 s of CPU.
 */
export function textFields({ id, name, type, frameType, desc, pend_desc, monster_desc }: RawCard): RawCard {
  return { id, name, type, frameType, desc, pend_desc, monster_desc };
}

/**
 * The English snapshot of `rawCards` as code of card format 2 (main 9f0f9b6, before Master Duel and
 * `treatedAs`) wrote it: the same cards without the fields added since, and `cardFormat` 2.
 */
export async function writeCardFormat2Snapshot(dataDir: string, rawCards: readonly RawCard[], version: string): Promise<number> {
  const { cards, skipped } = normaliseCards(rawCards);
  const format2 = cards.map(({ mdRarity: _mdRarity, treatedAs: _treatedAs, banlist: { masterduel: _masterduel, ...banlist }, ...card }) => ({ ...card, banlist }));
  const { body } = CompactRecords.lines(format2);
  const header = await snapshotHeader(
    { format: SNAPSHOT_FORMATS.cards, databaseVersion: version, downloadedAt: Date.now(), cardCount: cards.length, skippedCards: skipped },
    body,
  );
  await writeSnapshot(join(dataDir, 'cards'), SNAPSHOT_FILE, { ...header, cardFormat: 2 }, body);
  return cards.length;
}

/** The same cards (by passcode and name) and version give the same snapshot files. */
function snapshotKey(rawCards: readonly RawCard[], version: string): string {
  const hash = createHash('sha256').update(version);
  for (const card of rawCards) hash.update(`\0${card.id}\0${card.name}`);
  return hash.digest('hex').slice(0, 24);
}

/**
 * The run's snapshot of these cards, built by whichever test worker asks first. The folder is
 * renamed into place whole, so it is never seen half written; a file inside it records the number
 * of cards.
 */
function cachedSnapshot(dir: string, rawCards: readonly RawCard[], version: string): Promise<{ dir: string; cardCount: number }> {
  const built = async () => {
    const count = await readFile(join(dir, 'card-count'), 'utf8').catch(() => undefined);
    return count === undefined ? undefined : { dir: join(dir, 'cards'), cardCount: Number(count) };
  };
  return onceInRun(dir, built, async () => {
    const building = await mkdtemp(`${dir}.building-`);
    const cardCount = await buildSnapshot(join(building, 'cards'), rawCards, version);
    await writeFile(join(building, 'card-count'), String(cardCount));
    await rename(building, dir);
    return { dir: join(dir, 'cards'), cardCount };
  });
}
