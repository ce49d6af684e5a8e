import type { CardLanguage } from './card.js';

/**
 * Every card's name in one language, by passcode, as that language's card database holds it; a
 * card without a translation is left out. The matcher reads it once per rebuild, so an
 * implementation may generate the pairs lazily rather than build a list.
 */
export type LocalizedCardNames = (language: CardLanguage) => Iterable<readonly [passcode: number, name: string]>;
