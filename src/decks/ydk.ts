import { checkedDeck, type DeckList, type DeckSection, MAX_DECK_CARDS, MAX_PASSWORD, type ParsedDeck } from './deck-list.js';

/**
 * `.ydk` (upstreams.md § 6): `#main`, `#extra` and `!side` open sections, one password a line. Other
 * `#`/`!` lines are comments (`#created by …`); blank lines, CRLF, a BOM and trailing spaces are
 * tolerated. A line that is none of these makes the file not a deck, so a renamed text is refused
 * rather than read as an empty deck.
 */
const HEADERS: Record<string, DeckSection> = { '#main': 'main', '#extra': 'extra', '!side': 'side' };
const PASSWORD = /^\d{1,10}$/;
// Control characters other than tab, CR and LF: a text deck never has them, a binary file soon does.
// eslint-disable-next-line no-control-regex
const BINARY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The largest `.ydk` file read: 200 passwords of 10 digits with CRLF and a few comments come to
 * about 3 KiB, so 64 KiB leaves room for long comments and nothing else.
 */
export const MAX_YDK_BYTES = 64 * 1024;

/** Whether an attachment's name marks it as a `.ydk` deck (the message menu reads the first such file). */
export function isYdkName(name: string): boolean {
  return /\.ydk$/i.test(name.trim());
}

/** Reads an attachment's bytes: a file that is not UTF-8 text is refused as binary before parsing. */
export function parseYdkBytes(bytes: Uint8Array): ParsedDeck {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problem: 'binaryFile' };
  }
  return parseYdk(text);
}

export function parseYdk(input: string): ParsedDeck {
  if (BINARY.test(input)) return { ok: false, problem: 'binaryFile' };
  const deck: DeckList = { main: [], extra: [], side: [] };
  let section: DeckSection = 'main';
  let cards = 0;
  for (const raw of input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    const header = HEADERS[line.toLowerCase()];
    if (header) section = header;
    else if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    else if (PASSWORD.test(line) && Number(line) <= MAX_PASSWORD) {
      // Stop counting early: a huge file of passwords is refused without building its whole list.
      if (++cards > MAX_DECK_CARDS) return { ok: false, problem: 'tooManyCards' };
      deck[section].push(Number(line));
    } else return { ok: false, problem: 'notYdk' };
  }
  return checkedDeck(deck);
}

export function toYdk(deck: DeckList): string {
  const lines = ['#created by Almanac', '#main', ...deck.main.map(String), '#extra', ...deck.extra.map(String), '!side', ...deck.side.map(String)];
  return `${lines.join('\n')}\n`;
}
