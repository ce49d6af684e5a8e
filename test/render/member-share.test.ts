import { describe, expect, it } from 'vitest';
import { UI_LOCALES } from '../../src/i18n/catalogue.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { en } from '../../src/i18n/en.js';
import { shareSpentSentence } from '../../src/render/member-share.js';

describe('the refusal of a member whose share is spent', () => {
  it('is in the member’s language for every upstream, with the limit and the wait', () => {
    expect(shareSpentSentence('geojs', 60, 30_000, messagesFor('fr'))).toMatch(/^Doucement : les recherches GeoJS .* vos 60 nouvelles adresses .* Réessayez dans 30 secondes/);
    expect(shareSpentSentence('ygoprodeck', 40, 120_000, messagesFor('de'))).toMatch(/^Langsam: YGOPRODeck-Downloads .* deine 40 .* in etwa 2 Minuten/);
    for (const upstream of ['geojs', 'ygoprodeck', 'wallhaven', 'rdap'] as const) {
      const english = shareSpentSentence(upstream, 10, 60_000, en);
      for (const locale of UI_LOCALES.filter((code) => code !== 'en')) {
        const sentence = shareSpentSentence(upstream, 10, 60_000, messagesFor(locale));
        expect(sentence, `${upstream} in ${locale}`).not.toBe(english);
        expect(sentence).toContain('10');
      }
    }
  });
});
