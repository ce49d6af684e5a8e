import { describe, expect, it } from 'vitest';
import { compactCardinfoBody } from '../../src/services/off-thread/compact-download.js';
import { translatedDump } from '../fakes/card-translations.js';
import { loadCardDump } from '../fakes/ygoprodeck.js';
import { textFields } from './card-snapshot.js';

describe('card snapshots for tests', () => {
  it('keep of a language download, from its text fields alone, exactly what the whole cards give', () => {
    const dump = loadCardDump();
    // Every Pendulum card (its texts come from three fields) and a run of the others.
    const cards = [...dump.filter((card) => card.frameType.endsWith('_pendulum')), ...dump.slice(0, 1_500)];
    const compact = (data: unknown[]) => compactCardinfoBody(Buffer.from(JSON.stringify({ data })), 'texts');
    for (const language of ['fr', 'de'] as const) {
      const whole = translatedDump(cards, language);
      const fromWhole = compact(whole);
      expect(fromWhole.ids.length).toBeGreaterThan(1_000);
      expect(compact(whole.map(textFields)).body.equals(fromWhole.body)).toBe(true);
    }
  });
});
