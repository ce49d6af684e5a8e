import { checkedDeck, DECK_SECTIONS, type DeckList, MAX_DECK_CARDS, type ParsedDeck } from './deck-list.js';

/**
 * `ydke://<main>!<extra>!<side>!` (upstreams.md § 6): each section is standard base64 of the
 * passwords as little-endian uint32. The scheme is read in any case, surrounding spaces ignored, and
 * the trailing `!` is optional (some tools drop it); missing sections are empty.
 */
const SCHEME = 'ydke://';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// The base64 of the card cap's passwords (4 bytes each), each section's padding and the separators:
// anything longer is refused unread.
const MAX_URL_LENGTH = SCHEME.length + 4 * Math.ceil((MAX_DECK_CARDS * 4) / 3) + 3 * 4 + 4;

/** The first ydke URL in a message's text, if any (the message menu reads the first deck it finds). */
export function findYdkeUrl(text: string): string | undefined {
  return /ydke:\/\/[A-Za-z0-9+/=!]*/i.exec(text)?.[0];
}

export function parseYdke(input: string): ParsedDeck {
  const url = input.trim();
  if (url.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return { ok: false, problem: 'notYdke' };
  if (url.length > MAX_URL_LENGTH) return { ok: false, problem: 'tooManyCards' };
  const parts = url.slice(SCHEME.length).split('!');
  if (parts.length === DECK_SECTIONS.length + 1 && parts.at(-1) === '') parts.pop();
  if (parts.length > DECK_SECTIONS.length) return { ok: false, problem: 'tooManySections' };
  const deck: DeckList = { main: [], extra: [], side: [] };
  for (const [index, section] of DECK_SECTIONS.entries()) {
    const text = parts[index] ?? '';
    const unpadded = text.replace(/=+$/, '');
    if (!BASE64.test(text) || unpadded.length % 4 === 1 || (text.length !== unpadded.length && text.length % 4 !== 0)) {
      return { ok: false, problem: 'badBase64' };
    }
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length % 4 !== 0) return { ok: false, problem: 'badSectionLength' };
    for (let offset = 0; offset < bytes.length; offset += 4) deck[section].push(bytes.readUInt32LE(offset));
  }
  return checkedDeck(deck);
}

export function toYdke(deck: DeckList): string {
  const sections = DECK_SECTIONS.map((section) => {
    const bytes = Buffer.alloc(deck[section].length * 4);
    deck[section].forEach((password, index) => bytes.writeUInt32LE(password, index * 4));
    return `${bytes.toString('base64')}!`;
  });
  return `${SCHEME}${sections.join('')}`;
}
