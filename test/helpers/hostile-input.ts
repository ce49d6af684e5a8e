import { ApplicationCommandOptionType, InteractionType } from 'discord.js';
import fc from 'fast-check';
import type { InteractionExchange } from '../fakes/discord.js';
import type { RecordedRequest } from '../fakes/fake-server.js';

/**
 * What hostile users type into a string option, as a fast-check arbitrary: random text of every
 * kind mixed with the fragments that break parsers, URLs and renderers.
 */

/** Pieces known to matter somewhere: paths, URLs, encodings, markdown, mentions, odd code points. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  // Path traversal and URL structure.
  '../',
  '..\\',
  '/..',
  '%2e%2e%2f',
  '%2E%2E/',
  '..%2f',
  '%252e%252e%252f',
  '//evil.example/',
  'http://127.0.0.1:9/',
  'https://evil.example/x?y=1#z',
  '?apikey=x&',
  '#',
  '&',
  '=',
  '|',
  ',',
  ';',
  '%00',
  '%',
  '%zz',
  '%41',
  // IP addresses, zone ids and near misses.
  '8.8.8.8',
  '2001:4860:4860::8888',
  '::ffff:10.0.0.1',
  'fe80::1%eth0',
  'fe80::1%25lo',
  '[::1]:80',
  '10.0.0.0/8',
  '999.1.1.1',
  '1.1.1',
  '0x7f.0.0.1',
  // Wallhaven and card inputs and near misses.
  'abcdef',
  'whvn.cc/abcdef',
  'https://wallhaven.cc/w/abcdef',
  'wallhaven.cc/w/../../api',
  'like:abcdef',
  'id:1',
  '@alpha',
  'type:png',
  '1920x1080',
  '0x0',
  '99999x99999',
  'Dark Magician',
  '46986414',
  '0000000000046986414',
  'LOB',
  // Names every JavaScript object has: a lookup with `in` or `[]` finds them.
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  // Control characters, direction overrides, zero widths, line separators.
  '\u0000',
  '\n',
  '\r\n',
  '\t',
  '\u001b[31m',
  '\u007f',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2028',
  '\ufeff',
  // Look-alikes: Cyrillic, fullwidth, division slash, fullwidth digits, combining marks.
  'Dаrk Mаgiсiаn',
  '．．／',
  '∕',
  '８.８.８.８',
  'e\u0301',
  '🇺🇸',
  '👨‍👩‍👧‍👦',
  '𝕯𝖆𝖗𝖐',
  // Discord markdown, mentions and links.
  '**',
  '__',
  '~~',
  '||',
  '`',
  '```',
  '> ',
  '# ',
  '-# ',
  '\\',
  '@everyone',
  '@here',
  '<@&123456789012345678>',
  '<@123456789012345678>',
  '<#123456789012345678>',
  '</card show:123456789012345678>',
  '<t:0:R>',
  '[free nitro](https://evil.example/nitro)',
  '[a](b) [c](https://evil.example/second)',
  '[x](<https://evil.example>)',
  '<https://evil.example>',
  '![img](https://evil.example/i.png)',
];

const fragment = fc.constantFrom(...HOSTILE_FRAGMENTS);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Drops a first half of a surrogate pair left at the end by a cut: Discord never sends one. */
function wholeCodePoints(text: string): string {
  return text.replace(/[\uD800-\uDBFF]$/, '');
}

/** Any code point but a surrogate half, as fast-check's full alphabet draws them. */
const CODE_POINT = fc.mapToConstant(
  { num: 0xd800, build: (index) => String.fromCodePoint(index) },
  { num: 0x110000 - 0xe000, build: (index) => String.fromCodePoint(0xe000 + index) },
);

/**
 * Text of any code points: the characters `fc.string({ unit: 'binary' })` draws, without the seconds
 * of CPU that one costs every test worker that builds it (fast-check maps all 1.1 million code
 * points back to their indexes, to slip JavaScript's own names such as `__proto__` into the strings:
 * HOSTILE_FRAGMENTS has those).
 */
export function anyCodePoints(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.array(CODE_POINT, constraints).map((points) => points.join(''));
}

/** A hostile option value: anything from one odd character to 6,000 characters. */
export const HOSTILE_STRING: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.oneof(fragment, fc.string({ maxLength: 8 })), { maxLength: 12 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  // Any code point, as long as the text is valid UTF-16 (Discord sends UTF-8: no lone surrogates).
  { weight: 1, arbitrary: anyCodePoints({ maxLength: 60 }).filter((text) => !LONE_SURROGATE.test(text)) },
  { weight: 1, arbitrary: fc.tuple(fragment, fc.integer({ min: 100, max: 6_000 })).map(([piece, length]) => wholeCodePoints(piece.repeat(Math.ceil(length / piece.length)).slice(0, length))) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a'.repeat(6_000), '8.8.8.8 '.repeat(750), `${'[a](https://evil.example) '.repeat(230)}`) },
);

/**
 * `HOSTILE_STRING` cut to `max` characters: option values as Discord delivers them, which enforces
 * each option's `max_length` (1,000 at most here).
 */
export function hostileUpTo(max: number): fc.Arbitrary<string> {
  return HOSTILE_STRING.map((text) => wholeCodePoints(text.slice(0, max)));
}

/**
 * The text of a `/ip lookup` payload whose `data.options` nest `depth` deep (Discord nests at most
 * three), built as text so that nothing in the test recurses. `ids` fill in what an endpoint checks.
 */
export function nestedOptionsBody(depth: number, ids: { id: string; applicationId: string } = { id: '1', applicationId: '2' }): string {
  const level = `{"name":"l","type":${ApplicationCommandOptionType.Subcommand},"options":[`;
  const leaf = `{"name":"addresses","type":${ApplicationCommandOptionType.String},"value":"8.8.8.8"}`;
  const options = `${level.repeat(depth - 1)}${leaf}${']}'.repeat(depth - 1)}`;
  return (
    `{"id":"${ids.id}","application_id":"${ids.applicationId}","token":"t","type":${InteractionType.ApplicationCommand},` +
    `"user":{"id":"3","username":"u"},"data":{"name":"ip","type":1,"options":[${options}]}}`
  );
}

/** NUL, an escape and every bidi embedding, override and isolate, as a member may type them into an option. */
export const TYPED_CONTROLS = '\u0000\u001b\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';

/** What Almanac never echoes of typed text: C0 controls but tab and line feed, DEL, C1 controls, bidi controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_OR_BIDI = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Every string in what the bot sent for an exchange (its acknowledgement, the edits of its reply and
 * its follow-ups) that holds a control or bidi control: none, when typed text is made safe.
 */
export async function controlsSent(exchange: InteractionExchange): Promise<string[]> {
  const found: string[] = [];
  JSON.stringify([await exchange.callback(), exchange.edits(), exchange.followUps()], (_key, value: unknown) => {
    if (typeof value === 'string' && CONTROL_OR_BIDI.test(value)) found.push(value);
    return value;
  });
  return found;
}

/** The path and query values of each upstream request that holds a control or bidi control. */
export function controlsAsked(requests: readonly RecordedRequest[]): string[] {
  return requests.flatMap((request) => [request.path, ...request.query.values()]).filter((text) => CONTROL_OR_BIDI.test(text));
}
