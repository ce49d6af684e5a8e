/**
 * Card names written inline in a chat message: `<Ash Blossom>` (Bastion's syntax) or
 * `[[Ash Blossom]]` (the Magic bots'). Pure: the message text in, at most a few names out.
 *
 * Never a card name: Discord's own angle-bracket tokens (mentions `<@id>` `<@!id>` `<@&id>`,
 * channels `<#id>`, emoji `<:name:id>` `<a:name:id>`, timestamps `<t:…>`, commands `</cmd:id>`,
 * guide links `<id:browse>`, links `<https://…>` whose embed is suppressed), and anything inside a
 * code block, a code span or a spoiler: what the author hid or quoted as code was not asked about.
 */

/** At most this many names are read from one message (Bastion's limit too). */
export const MAX_INLINE_NAMES = 3;
/** Discord's longest message (Nitro); anything after it is not a message's text. */
const MAX_CONTENT_CHARS = 4_000;

/**
 * Matched pairs of code fences, double and single code spans, and spoilers, in Discord's order of
 * precedence (code first: `||` inside code is code). An unclosed marker is literal text, as
 * Discord shows it.
 */
const HIDDEN = /```[\s\S]*?```|``[\s\S]*?``|`[^`]*`|\|\|[\s\S]*?\|\|/g;

/**
 * `[[name]]` (spaces inside allowed) or `<name>` (none directly inside, as in Discord's tokens,
 * so `a < b > c` is a comparison, not a card). No card name holds a bracket of either kind. A name never spans lines and has at most 100
 * characters (card names have at most 68 today; `/card`'s option takes 100).
 */
const CANDIDATE = /(\\?)(?:\[\[([^[\]<>\n]{1,100})\]\]|<([^<>[\]\s][^<>[\]\n]{0,98}[^<>[\]\s]|[^<>[\]\s])>)/g;

/**
 * Discord's tokens and links: a mention, a channel, an emoji, a command, or anything shaped like a
 * URI without spaces (`t:1700000000:R`, `id:browse`, `https://…`, `mailto:…`). Card names start
 * with a letter, a digit or a quote, and the few with a colon have a space after it (`Re: EX`).
 */
const DISCORD_TOKEN = /^(?:[@#:/]|a:[^\s:]*:|[a-z][a-z0-9+.-]*:\S*$)|:\/\//i;

/** A name starts with a letter, a digit or a quote and holds at least one letter or digit. */
const NAME_START = /^["'“‘\p{L}\p{N}]/u;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Same name, same key: case and runs of spaces do not make two names. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The card names written inline in `content`, in the order written, each once (ignoring case and
 * spacing), at most `MAX_INLINE_NAMES`. Never throws, whatever the text.
 */
export function inlineCardNames(content: string): string[] {
  const text = content.slice(0, MAX_CONTENT_CHARS).replace(HIDDEN, '\n');
  const names: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(CANDIDATE)) {
    // A backslash before the bracket escapes it in Discord's markdown: shown as typed, not a name.
    if (match[1] === '\\') continue;
    const name = (match[2] ?? match[3] ?? '').trim();
    if (!NAME_START.test(name) || !HAS_WORD.test(name) || DISCORD_TOKEN.test(name)) continue;
    const key = nameKey(name);
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(name);
    if (names.length === MAX_INLINE_NAMES) break;
  }
  return names;
}
