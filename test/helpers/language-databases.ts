import { expect, vi } from 'vitest';
import { CARD_LANGUAGES } from '../../src/cards/card.js';
import type { CardService } from '../../src/services/ygoprodeck/cards.js';

/**
 * Waits until every language database and the Genesys points are loaded: a first start downloads
 * English, then the Genesys pool, then each language in turn, in the background. Tests that count
 * requests to YGOPRODeck wait for this first.
 */
export async function waitForLanguageDatabases(cards: Pick<CardService, 'languageReady' | 'genesysVersion'>, timeoutMs = 90_000): Promise<void> {
  await vi.waitFor(
    () => {
      const missing = [...CARD_LANGUAGES.filter((language) => !cards.languageReady(language)), ...(cards.genesysVersion === null ? ['genesys'] : [])];
      if (missing.length > 0) throw new Error(`language databases not loaded yet: ${missing.join(', ')}`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Waits for the English card database, the set list and every language database of a first start. */
export async function waitForEveryCardDatabase(cards: Pick<CardService, 'whenReady' | 'whenSetsReady' | 'languageReady' | 'genesysVersion'>): Promise<void> {
  expect(await cards.whenReady(60_000)).toBe(true);
  expect(await cards.whenSetsReady(10_000)).toBe(true);
  await waitForLanguageDatabases(cards);
}
