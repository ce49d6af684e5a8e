import { describe, expect, it } from 'vitest';
import { bilingualCardName } from '../../src/render/card-name.js';

describe('bilingualCardName', () => {
  it('shows the local name with the English one beside it, or the English name alone', () => {
    expect(bilingualCardName('Dark Magician', 'Magicien Sombre', 100)).toBe('Magicien Sombre (Dark Magician)');
    expect(bilingualCardName('Dark Magician', undefined, 100)).toBe('Dark Magician');
    expect(bilingualCardName('Tragoedia', 'Tragoedia', 100)).toBe('Tragoedia');
  });

  it('fits two long names in the limit, each keeping at least half of the room', () => {
    const english = 'Black Luster Soldier - Envoy of the Beginning of a Very Long Name Indeed';
    const local = 'Soldat du Lustre Noir - Émissaire du Commencement avec un Nom Très Long Aussi';
    const label = bilingualCardName(english, local, 100);
    expect(label.length).toBeLessThanOrEqual(100);
    expect(label).toMatch(/^Soldat du Lustre Noir .*… \(Black Luster Soldier .*…\)$/);
    // A short local name leaves the English one its whole length when it fits.
    expect(bilingualCardName(english, 'Soldat', 100)).toBe(`Soldat (${english})`);
  });

  it('never cuts a surrogate pair in two', () => {
    const label = bilingualCardName('😀'.repeat(60), '🐉'.repeat(60), 100);
    expect(label.length).toBeLessThanOrEqual(100);
    expect(label).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
