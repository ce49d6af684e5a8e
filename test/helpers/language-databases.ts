import { vi } from 'vitest';
import { CARD_LANGUAGES } from '../../src/cards/card.js';
import type { CardService } from '../../src/services/cards.js';

/**
 * Waits until every language database is loaded: a first start downloads English, then each
 * language in turn, in the background. Tests that count requests to YGOPRODeck wait for this first.
 */
export async function waitForLanguageDatabases(cards: Pick<CardService, 'languageReady'>, timeoutMs = 90_000): Promise<void> {
  await vi.waitFor(
    () => {
      const missing = CARD_LANGUAGES.filter((language) => !cards.languageReady(language));
      if (missing.length > 0) throw new Error(`language databases not loaded yet: ${missing.join(', ')}`);
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
