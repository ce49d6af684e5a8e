import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { CARD_LANGUAGES } from '../../src/cards/card.js';
import { CardDatabase } from '../../src/services/ygoprodeck/card-database.js';
import type { CardDatabaseOptions } from '../../src/services/ygoprodeck/card-database-options.js';
import { CardImageStore } from '../../src/services/ygoprodeck/card-images.js';
import { CardService, type CardServiceOptions } from '../../src/services/ygoprodeck/cards.js';
import type { YgoprodeckLimits } from '../../src/services/ygoprodeck/ygoprodeck-limits.js';
import { YgoprodeckClient } from '../../src/services/ygoprodeck/ygoprodeck.js';
import { TEST_PACE, startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { testOffThread } from './off-thread.js';

/** A CardService on the real client, database and image store, against a fake YGOPRODeck. */
export interface Harness {
  fake: FakeYgoprodeck;
  client: YgoprodeckClient;
  database: CardDatabase;
  service: CardService;
  dataDir: string;
}

/**
 * The real client, database and image store against the fake (300 real cards), in a temporary
 * DATA_DIR; the client at the tests' pace unless `limits` says otherwise (`{}`: production's).
 */
export async function startHarness(options: Partial<CardServiceOptions> = {}, databaseOptions: Partial<CardDatabaseOptions> = {}, limits: Partial<YgoprodeckLimits> = TEST_PACE): Promise<Harness> {
  const fake = await startFakeYgoprodeck();
  const dataDir = await mkdtemp(join(tmpdir(), 'almanac-cards-'));
  const client = new YgoprodeckClient({ baseUrl: fake.url, imagesBaseUrl: fake.imagesUrl, limits });
  // The fake serves 300 cards; the real database's minimum would refuse them as a corrupt download.
  const database = new CardDatabase({ client, dataDir, minCards: 100, ...databaseOptions });
  const images = new CardImageStore({ client, dataDir });
  const service = new CardService({ database, images, client, buildMatcherTables: testOffThread().buildMatcherTables, ...options });
  return { fake, client, database, service, dataDir };
}

export async function startLoaded(options: Partial<CardServiceOptions> = {}, databaseOptions: Partial<CardDatabaseOptions> = {}, limits?: Partial<YgoprodeckLimits>): Promise<Harness> {
  const started = await startHarness(options, databaseOptions, limits);
  await started.service.start();
  expect(await started.service.whenReady(15_000)).toBe(true);
  // The first refresh goes on with the language databases after English; let it finish.
  await started.database.refresh();
  await everyLanguageMatched(started);
  return started;
}

/**
 * Resolves once the matcher in use holds every loaded language's names as the database has them: the
 * matcher is rebuilt in a worker thread after the database's refresh has resolved, so the one in
 * use may still be the previous one (on a busy machine, for a while).
 */
export async function everyLanguageMatched(harness: Harness): Promise<void> {
  const matched = () => CARD_LANGUAGES.every((language) => !harness.database.hasTexts(language) || harness.service.languageReady(language));
  // vi.waitFor, not expect.poll: a describe block's beforeAll waits on it too.
  await vi.waitFor(() => expect(matched()).toBe(true), { timeout: 15_000, interval: 50 });
}

/** Closes the service and the fake, and removes the DATA_DIR. */
export async function stopHarness(started: Harness | undefined): Promise<void> {
  await started?.service.close();
  await started?.fake.close();
  if (started) await rm(started.dataDir, { recursive: true, force: true });
}

