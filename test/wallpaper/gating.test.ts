import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import type { ChannelInfo } from '../../src/interaction/context.js';
import { purityAllowed } from '../../src/wallpaper/gating.js';

const CHANNELS: Record<string, Pick<ChannelInfo, 'kind' | 'ageRestricted'>> = {
  normal: { kind: 'guild', ageRestricted: false },
  ageRestricted: { kind: 'guild', ageRestricted: true },
  threadOfAgeRestricted: { kind: 'thread', ageRestricted: true },
  threadOfNormal: { kind: 'thread', ageRestricted: false },
  dm: { kind: 'dm', ageRestricted: false },
};

/** The whole matrix: purity × channel × key, with the expected refusal (null = allowed). */
const MATRIX: [purity: 'sfw' | 'sketchy' | 'nsfw', channel: keyof typeof CHANNELS, hasKey: boolean, refusal: string | null][] = [
  ['sfw', 'normal', false, null],
  ['sfw', 'ageRestricted', false, null],
  ['sfw', 'threadOfAgeRestricted', false, null],
  ['sfw', 'threadOfNormal', false, null],
  ['sfw', 'dm', false, null],
  ['sfw', 'normal', true, null],
  ['sfw', 'dm', true, null],
  ['sketchy', 'normal', false, en.wallpaper.refusedInChannel],
  ['sketchy', 'normal', true, en.wallpaper.refusedInChannel],
  ['sketchy', 'ageRestricted', false, null],
  ['sketchy', 'ageRestricted', true, null],
  ['sketchy', 'threadOfAgeRestricted', false, null],
  ['sketchy', 'threadOfNormal', true, en.wallpaper.refusedInChannel],
  ['sketchy', 'dm', false, en.wallpaper.refusedInDm],
  ['sketchy', 'dm', true, en.wallpaper.refusedInDm],
  ['nsfw', 'normal', false, en.wallpaper.refusedInChannel],
  ['nsfw', 'normal', true, en.wallpaper.refusedInChannel],
  ['nsfw', 'ageRestricted', false, en.wallpaper.refusedWithoutKey],
  ['nsfw', 'ageRestricted', true, null],
  ['nsfw', 'threadOfAgeRestricted', false, en.wallpaper.refusedWithoutKey],
  ['nsfw', 'threadOfAgeRestricted', true, null],
  ['nsfw', 'threadOfNormal', true, en.wallpaper.refusedInChannel],
  ['nsfw', 'dm', false, en.wallpaper.refusedInDm],
  ['nsfw', 'dm', true, en.wallpaper.refusedInDm],
];

describe('purityAllowed', () => {
  it.each(MATRIX)('%s in %s with key=%s', (purity, channel, hasKey, refusal) => {
    const decision = purityAllowed(purity, CHANNELS[channel]!, hasKey);
    expect(decision).toEqual(refusal === null ? { allowed: true } : { allowed: false, reason: refusal });
  });

  it('refuses in a DM even if a DM ever reported an age-restricted flag', () => {
    expect(purityAllowed('sketchy', { kind: 'dm', ageRestricted: true }, true)).toEqual({ allowed: false, reason: en.wallpaper.refusedInDm });
  });
});
