import { describe, expect, it } from 'vitest';
import { soundKey } from '../../src/cards/sound-key.js';

describe('soundKey', () => {
  it.each([
    ['chaos', 'kaos'],
    ['chimera', 'kimera'],
    ['mystical', 'mistikal'],
    ['typhoon', 'tyfoon'],
    ['phoenix', 'foenix'],
    ['sangan', 'sanggan'],
    ['kuriboh', 'kuribou'],
    ['jinzo', 'jinzou'],
    ['yubel', 'yuubel'],
    ['shiranui', 'siranui'],
    ['kashtira', 'kastira'],
    ['knight', 'nite'],
    ['halqifibrax', 'halkifibrax'],
    ['ecclesia', 'eklesia'],
    ['blauaugiger', 'blauaeugiger'],
    ['magicien', 'majicien'],
  ])('%s sounds like %s', (word, spelling) => {
    expect(soundKey(spelling)).toBe(soundKey(word));
  });

  it.each([
    ['raigeki', 'rogue'],
    ['dragon', 'drago'],
    ['magician', 'musician'],
    ['fire', 'four'],
  ])('%s does not sound like %s', (word, other) => {
    expect(soundKey(other)).not.toBe(soundKey(word));
  });

  it('keeps digits and gives short words a key', () => {
    expect(soundKey('39')).toBe('39');
    expect(soundKey('ki')).toBe('ki');
  });
});
