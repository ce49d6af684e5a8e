import { describe, expect, it } from 'vitest';
import type { ChannelInfo } from '../../src/interaction/context.js';
import { purityAllowed, REFUSED_IN_CHANNEL, REFUSED_IN_DM, REFUSED_WITHOUT_KEY } from '../../src/wallpaper/gating.js';

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
  ['sketchy', 'normal', false, REFUSED_IN_CHANNEL],
  ['sketchy', 'normal', true, REFUSED_IN_CHANNEL],
  ['sketchy', 'ageRestricted', false, null],
  ['sketchy', 'ageRestricted', true, null],
  ['sketchy', 'threadOfAgeRestricted', false, null],
  ['sketchy', 'threadOfNormal', true, REFUSED_IN_CHANNEL],
  ['sketchy', 'dm', false, REFUSED_IN_DM],
  ['sketchy', 'dm', true, REFUSED_IN_DM],
  ['nsfw', 'normal', false, REFUSED_IN_CHANNEL],
  ['nsfw', 'normal', true, REFUSED_IN_CHANNEL],
  ['nsfw', 'ageRestricted', false, REFUSED_WITHOUT_KEY],
  ['nsfw', 'ageRestricted', true, null],
  ['nsfw', 'threadOfAgeRestricted', false, REFUSED_WITHOUT_KEY],
  ['nsfw', 'threadOfAgeRestricted', true, null],
  ['nsfw', 'threadOfNormal', true, REFUSED_IN_CHANNEL],
  ['nsfw', 'dm', false, REFUSED_IN_DM],
  ['nsfw', 'dm', true, REFUSED_IN_DM],
];

describe('purityAllowed', () => {
  it.each(MATRIX)('%s in %s with key=%s', (purity, channel, hasKey, refusal) => {
    const decision = purityAllowed(purity, CHANNELS[channel]!, hasKey);
    expect(decision).toEqual(refusal === null ? { allowed: true } : { allowed: false, reason: refusal });
  });

  it('refuses in a DM even if a DM ever reported an age-restricted flag', () => {
    expect(purityAllowed('sketchy', { kind: 'dm', ageRestricted: true }, true)).toEqual({ allowed: false, reason: REFUSED_IN_DM });
  });
});
