import { escapeMarkdown } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inertText, quoteUserText } from '../../src/render/user-text.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { hostileUpTo } from '../helpers/hostile-input.js';

const ZWSP = '\u200b';

describe('inertText, remembered', () => {
  it('answers the same for a text asked again after more texts than it remembers, and for a text too long to remember', () => {
    const text = '# *Dark* [Magician](https://example.com) @everyone <@1>';
    const first = inertText(text);
    // Enough texts to pass the memory's million characters; without * or _, so that discord.js's
    // quadratic italic escape does not run on each (it made this loop 10 s of the suite).
    for (let index = 0; index < 3_000; index++) inertText(`${'x'.repeat(400)} ${index} <@${index}>`);
    expect(inertText(text)).toBe(first);
    const long = `${text} ${'y'.repeat(5_000)}`;
    expect(inertText(long)).toBe(inertText(long));
    expect(inertText(long).startsWith(first)).toBe(true);
  });
});

describe('inertText', () => {
  it('breaks links of every form: bare, <…> and masked', () => {
    expect(inertText('go to https://evil.example now')).toBe(`go to https:${ZWSP}//evil.example now`);
    expect(inertText('<https://evil.example>')).toBe(`<${ZWSP}https:${ZWSP}//evil.example>`);
    expect(inertText('[a](https://x.example) [b](https://y.example)')).toBe(`\\[a](https:${ZWSP}//x.example) \\[b](https:${ZWSP}//y.example)`);
  });

  it('breaks mentions, timestamps and emoji, and leaves a plain @name alone', () => {
    expect(inertText('@everyone @here <@123> <@&4> <#5> </cmd:6> <t:0:R> <:e:7> @Ignister')).toBe(
      `@${ZWSP}everyone @${ZWSP}here <${ZWSP}@123> <${ZWSP}@&4> <${ZWSP}#5> <${ZWSP}/cmd:6> <${ZWSP}t:0:R> <${ZWSP}:e:7> @Ignister`,
    );
  });

  it('escapes markdown, headings and lists', () => {
    expect(inertText('**b** _i_ `c` ||s||\n# h\n- l\n1. n')).toBe('\\*\\*b\\*\\* \\_i\\_ \\`c\\` \\|\\|s\\|\\|\n\\# h\n\\- l\n1\\. n');
  });

  it('skips the italic escape only where it changes nothing: in a text without `*` or `_`', () => {
    const options = { heading: true, bulletedList: true, numberedList: true };
    fc.assert(
      // Up to 500 characters: the escape it compares against is quadratic, and the rule does not depend on length.
      fc.property(hostileUpTo(500).map((text) => text.replace(/[*_]/g, '')), (text) => {
        expect(escapeMarkdown(text, { ...options, italic: false })).toBe(escapeMarkdown(text, options));
      }),
      { numRuns: fuzzRuns(400) },
    );
  });
});

describe('quoteUserText', () => {
  it('quotes one inert line, cut to its budget', () => {
    expect(quoteUserText('a\n\nb  https://x.example')).toBe(`“a b https:${ZWSP}//x.example”`);
    expect(quoteUserText('x'.repeat(500)).length).toBeLessThanOrEqual(82);
    expect(quoteUserText('1.1.1.1/32')).toBe('“1.1.1.1/32”');
  });
});
