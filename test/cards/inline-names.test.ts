import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineCardNames, MAX_INLINE_NAMES } from '../../src/cards/inline-names.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** Discord's own angle-bracket tokens: never card names. */
const DISCORD_TOKENS = [
  '<@1356000000000000200>',
  '<@!1356000000000000200>',
  '<@&1356000000000000100>',
  '<#1356000000000000101>',
  '<:blossom:1356000000000000400>',
  '<a:spin:1356000000000000401>',
  '<t:1700000000>',
  '<t:1700000000:R>',
  '</card show:1356000000000000500>',
  '<id:browse>',
  '<https://db.ygoprodeck.com/card/?search=Ash>',
  '<http://example.com/a b>',
  '<mailto:someone@example.com>',
];

describe('inlineCardNames', () => {
  it('reads <name> and [[name]] in the order written', () => {
    expect(inlineCardNames('Is <Ash Blossom> better than [[Effect Veiler]] here?')).toEqual(['Ash Blossom', 'Effect Veiler']);
    expect(inlineCardNames('[[ Dark Magician ]] and <7>')).toEqual(['Dark Magician', '7']);
    expect(inlineCardNames('<Re: EX> <I:P Masquerena> <"A" Cell Breeding Device> <Maxx "C">')).toEqual([
      'Re: EX',
      'I:P Masquerena',
      '"A" Cell Breeding Device',
    ]);
  });

  it(`reads at most ${MAX_INLINE_NAMES} names, each once whatever its case and spacing`, () => {
    expect(inlineCardNames('<ash> <ASH> [[ash]] <ash  blossom> <Ash Blossom> <veiler> <droll>')).toEqual(['ash', 'ash  blossom', 'veiler']);
  });

  it.each(DISCORD_TOKENS)('never reads Discord’s %s', (token) => {
    expect(inlineCardNames(`${token} hello ${token}`)).toEqual([]);
    // Beside a card name, only the card name is read.
    expect(inlineCardNames(`${token} <Ash Blossom> ${token}`)).toEqual(['Ash Blossom']);
  });

  it('never reads inside code blocks, code spans or spoilers', () => {
    expect(inlineCardNames('```\n<Ash Blossom>\n[[Effect Veiler]]\n```')).toEqual([]);
    expect(inlineCardNames('```ts\nconst a = <Ash Blossom>;```')).toEqual([]);
    expect(inlineCardNames('use `<Ash Blossom>` or ``[[Veiler]]``')).toEqual([]);
    expect(inlineCardNames('my hand: ||<Ash Blossom> and [[Effect Veiler]]||')).toEqual([]);
    expect(inlineCardNames('`||` <Ash Blossom> `||`')).toEqual(['Ash Blossom']);
    expect(inlineCardNames('<Ash `code` Blossom>')).toEqual([]);
  });

  it('reads what follows an unclosed marker, as Discord shows it literally', () => {
    expect(inlineCardNames('half a fence ``` <Ash Blossom>')).toEqual(['Ash Blossom']);
    expect(inlineCardNames('|| <Ash Blossom>')).toEqual(['Ash Blossom']);
  });

  it('reads no comparison, arrow, escaped bracket, HTML-ish tag or name across lines', () => {
    expect(inlineCardNames('a < b > c, x <- y -> z')).toEqual([]);
    expect(inlineCardNames('\\<Ash Blossom> \\[[Effect Veiler]]')).toEqual([]);
    expect(inlineCardNames('</b> <-->')).toEqual([]);
    expect(inlineCardNames('<Ash\nBlossom> [[Effect\nVeiler]]')).toEqual([]);
    expect(inlineCardNames(`<${'a'.repeat(101)}>`)).toEqual([]);
    expect(inlineCardNames('<>  [[]] [[   ]] <!!!>')).toEqual([]);
    // Found by the property below: brackets of one kind inside the other's.
    expect(inlineCardNames('[["<0]] [[a>b]]')).toEqual([]);
  });

  it('never throws, reads at most three names, each a line of at most 100 characters with a letter or digit (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('<', '>', '[[', ']]', '`', '```', '||', '\\', '\n', ' ', '@', '#', ':', '/', 'https://', 't:', 'Ash'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const names = inlineCardNames(pieces.join(''));
        expect(names.length).toBeLessThanOrEqual(MAX_INLINE_NAMES);
        for (const name of names) {
          expect(name).toBe(name.trim());
          expect(name.length).toBeGreaterThan(0);
          expect(name.length).toBeLessThanOrEqual(100);
          expect(name).not.toMatch(/[\n<>[\]]/);
          expect(name).toMatch(/[\p{L}\p{N}]/u);
        }
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });

  it('never reads a Discord token, nor a name hidden in code or a spoiler, wherever they stand (property)', () => {
    const secret = 'Zzsecret';
    const hidden = fc.constantFrom(`\`<${secret}>\``, `\`\`[[${secret}]]\`\``, `\`\`\`\n<${secret}>\n\`\`\``, `||<${secret}>||`, `||[[${secret}]]||`);
    const token = fc.constantFrom(...DISCORD_TOKENS);
    const filler = fc.string({ maxLength: 20 }).map((text) => text.replace(/[`|\\]/g, ''));
    fc.assert(
      fc.property(fc.array(fc.oneof(hidden, token, filler), { maxLength: 12 }), (pieces) => {
        const names = inlineCardNames(pieces.join(' '));
        for (const name of names) {
          expect(name).not.toContain(secret);
          for (const discordToken of DISCORD_TOKENS) expect(`<${name}>`).not.toBe(discordToken);
        }
      }),
      { numRuns: fuzzRuns(2_000) },
    );
  });

  it('reads no name from 4,000 characters of unclosed brackets, backticks or bars', () => {
    const hostile = ['<'.repeat(4_000), '[['.repeat(2_000), '`'.repeat(4_000), '|'.repeat(4_000), '<a'.repeat(2_000), '[[a'.repeat(1_333)];
    for (const text of hostile) expect(inlineCardNames(text)).toEqual([]);
  });

  it('reads the first 4,000 characters of a message only', () => {
    const name = '<Ash Blossom>';
    expect(inlineCardNames(`${'x'.repeat(4_000 - name.length)}${name}`)).toEqual(['Ash Blossom']);
    expect(inlineCardNames(`${'x'.repeat(4_001 - name.length)}${name}`)).toEqual([]);
  });
});
