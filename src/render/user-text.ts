import { escapeMarkdown } from 'discord.js';
import { truncate } from './format.js';

/**
 * The one way text the bot did not write (an option someone typed, a message it read, a name or tag
 * an upstream sent) is shown where Discord renders markdown. Whatever the text holds, it shows as
 * typed and does nothing:
 * - markdown, headings and lists are escaped (discord.js), and so is every `[`: discord.js's own
 *   masked-link escape catches only the first of a line (its pattern is greedy), so
 *   `[a](b) [c](https://…)` kept a working link;
 * - a URL (bare or `<…>`) gets a zero-width space after its `://`, so it is not a link the bot posts
 *   for whoever typed it;
 * - `@everyone`, `@here` and every `<…>` form (users, roles, channels, commands, timestamps, custom
 *   emoji) get a zero-width space that stops Discord parsing them (mentions never ping anyway:
 *   allowed_mentions is empty, but a pill or a timestamp would still show).
 */

const ZERO_WIDTH_SPACE = '\u200b';

/**
 * The inert forms of the texts made inert lately. A card's name, type line and text, a country's
 * name: the same texts are shown answer after answer, and escaping them runs a dozen regular
 * expressions over each. Bounded by the characters held (the oldest forgotten first), so typed
 * texts cannot grow it; a text longer than a card's is not remembered at all.
 */
const REMEMBERED_CHARACTERS = 1_000_000;
const LONGEST_REMEMBERED = 4_000;
const inertForms = new Map<string, string>();
let rememberedCharacters = 0;

export function inertText(text: string): string {
  const remembered = inertForms.get(text);
  if (remembered !== undefined) return remembered;
  const inert = escapeInert(text);
  if (text.length > LONGEST_REMEMBERED) return inert;
  rememberedCharacters += text.length + inert.length;
  for (const [oldest, oldestInert] of inertForms) {
    if (rememberedCharacters <= REMEMBERED_CHARACTERS) break;
    inertForms.delete(oldest);
    rememberedCharacters -= oldest.length + oldestInert.length;
  }
  inertForms.set(text, inert);
  return inert;
}

function escapeInert(text: string): string {
  // discord.js escapes italics with look-behinds tried at every position of the text (quadratic in
  // its length: most of the time of rendering a long card text). They escape only `*` and `_`, so a
  // text with neither skips them and comes out the same (test/render/user-text.test.ts).
  return escapeMarkdown(text, { heading: true, bulletedList: true, numberedList: true, italic: /[*_]/.test(text) })
    .replace(/\[/g, '\\[')
    .replace(/:\/\//g, `:${ZERO_WIDTH_SPACE}//`)
    .replace(/</g, `<${ZERO_WIDTH_SPACE}`)
    .replace(/@(everyone|here)/gi, `@${ZERO_WIDTH_SPACE}$1`);
}

/** Cuts inert text to `max` characters without leaving a dangling backslash before the ellipsis. */
export function fitInert(inert: string, max: number): string {
  if (inert.length <= max) return inert;
  return truncate(inert, max).replace(/(?<!\\)((?:\\\\)*)\\…$/, '$1…');
}

/** `inertText`, then cut to `max` characters. */
export function fitText(text: string, max: number): string {
  return fitInert(inertText(text), max);
}

/** How much of someone's input a sentence quotes; the rest is cut with an ellipsis. */
const QUOTED_CHARACTERS = 80;

/**
 * Someone's input quoted in a sentence (“…”): on one line, inert, at most `max` characters of it.
 * Only the part that can be shown is escaped: escaping is quadratic in runs of backticks.
 */
export function quoteUserText(text: string, max: number = QUOTED_CHARACTERS): string {
  const oneLine = text
    .slice(0, max * 5)
    .replace(/\s+/g, ' ')
    .trim();
  // Escaped after the opening quote, as it is shown: the text never starts a line, so a leading
  // `1.` or `#` is no list or heading to escape.
  return `${fitText(`“${oneLine}`, max + 1)}”`;
}
