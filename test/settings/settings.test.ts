import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipAnswersPrivately, NO_CHOICES, parseIpAnswersChoice, parseLanguageChoice, parsePurityChoice, resolveSettings } from '../../src/settings/settings.js';
import { purityAllowed, withinCeiling } from '../../src/wallpaper/gating.js';
import { en } from '../../src/i18n/en.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

describe('settings resolution', () => {
  it('applies nothing when nothing was chosen: Discord’s language, inline cards on, each /ip default, no ceiling', () => {
    expect(resolveSettings(NO_CHOICES)).toEqual({
      publicLanguage: { value: null, from: 'default' },
      ownLanguage: { value: null, from: 'default' },
      inlineCards: { value: true, from: 'default' },
      ipAnswers: { value: null, from: 'default' },
      purityCeiling: { value: null, from: 'default' },
    });
    // One shared answer for every place that chose nothing, which nobody can change.
    expect(resolveSettings(NO_CHOICES)).toBe(resolveSettings(NO_CHOICES));
    expect(Object.isFrozen(resolveSettings(NO_CHOICES).purityCeiling)).toBe(true);
    expect(resolveSettings({ guild: null, channels: [], user: null })).toEqual(resolveSettings(NO_CHOICES));
  });

  it('takes the channel, then its parent, then the server, then the member for public answers; the member’s own stays theirs', () => {
    const guild = { language: 'de' as const, inlineCards: false, ipAnswers: 'private' as const, wallpaperPurity: 'sketchy' as const };
    const user = { language: 'it' as const, ipAnswers: 'public' as const };
    const channel = { language: 'fr' as const, inlineCards: null, wallpaperPurity: null };
    const parent = { language: 'pt-BR' as const, inlineCards: true, wallpaperPurity: 'sfw' as const };
    expect(resolveSettings({ guild, channels: [channel, parent], user })).toEqual({
      publicLanguage: { value: 'fr', from: 'channel' },
      ownLanguage: { value: 'it', from: 'user' },
      inlineCards: { value: true, from: 'channel' },
      ipAnswers: { value: 'private', from: 'server' },
      purityCeiling: { value: 'sfw', from: 'channel' },
    });
    expect(resolveSettings({ guild, channels: [null], user })).toMatchObject({ publicLanguage: { value: 'de', from: 'server' }, inlineCards: { value: false, from: 'server' } });
    expect(resolveSettings({ guild: null, channels: [], user })).toMatchObject({ publicLanguage: { value: 'it', from: 'user' }, ipAnswers: { value: 'public', from: 'user' } });
  });

  it('lets the public option win over the settings, and the settings over each subcommand’s default', () => {
    expect(ipAnswersPrivately(true, 'private', true)).toBe(false);
    expect(ipAnswersPrivately(false, 'public', false)).toBe(true);
    expect(ipAnswersPrivately(null, 'public', true)).toBe(false);
    expect(ipAnswersPrivately(null, 'private', false)).toBe(true);
    expect(ipAnswersPrivately(null, null, true)).toBe(true);
    expect(ipAnswersPrivately(null, null, false)).toBe(false);
  });

  it('only narrows what a channel allows with a purity ceiling', () => {
    const restricted = { kind: 'guild' as const, ageRestricted: true };
    expect(purityAllowed('sketchy', { ...restricted, purityCeiling: 'sfw' }, true)).toEqual({ allowed: false, reason: en.wallpaper.refusedBySettings });
    expect(purityAllowed('nsfw', { ...restricted, purityCeiling: 'sketchy' }, true).allowed).toBe(false);
    expect(purityAllowed('sketchy', { ...restricted, purityCeiling: 'sketchy' }, true).allowed).toBe(true);
    expect(purityAllowed('sfw', { ...restricted, purityCeiling: 'sfw' }, true).allowed).toBe(true);
    // A ceiling above what the channel allows gives nothing more.
    expect(purityAllowed('sketchy', { kind: 'guild', ageRestricted: false, purityCeiling: 'nsfw' }, true)).toEqual({ allowed: false, reason: en.wallpaper.refusedInChannel });
    expect(withinCeiling('nsfw', undefined)).toBe(true);
  });

  it('reads only the values /settings offers, whatever is typed', () => {
    expect(parseLanguageChoice('pt-BR')).toBe('pt-BR');
    expect(parseLanguageChoice('default')).toBeNull();
    expect(parsePurityChoice('sketchy')).toBe('sketchy');
    expect(parseIpAnswersChoice('private')).toBe('private');
    const offered = new Set(['en', 'fr', 'de', 'it', 'pt-BR', 'default', 'sfw', 'sketchy', 'nsfw', 'public', 'private']);
    fc.assert(
      fc.property(fc.string({ maxLength: 1_000 }), (typed) => {
        for (const parse of [parseLanguageChoice, parsePurityChoice, parseIpAnswersChoice]) {
          const value = parse(typed);
          if (!offered.has(typed)) expect(value).toBeUndefined();
        }
      }),
      { numRuns: fuzzRuns(1_000) },
    );
  });
});
