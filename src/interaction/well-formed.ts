import type { AttachmentRef, OptionValues } from './context.js';
import type { RoutedInteraction } from './routed-interaction.js';

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The C0 controls but tab and line feed, DEL, and the C1 controls. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Bidi embeddings and overrides (LRE RLE PDF LRO RLO) and isolates (LRI RLI FSI PDI). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * Any character one of the three replacements below could touch (every surrogate, paired or not):
 * nearly all text has none, and one search costs less than three replacing passes.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const MAY_CHANGE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/;

/**
 * `text` made safe to echo and to send on, whatever was typed (in an interaction, or in a message
 * read for cards named inline):
 * - a control character becomes U+FFFD. NUL, escapes (ESC, and C1's CSI) and carriage returns are
 *   not text anyone means to type into an option: NUL cuts strings in C code and some upstreams
 *   refuse it, and escapes act on the terminals that show the logs. U+FFFD leaves a visible trace
 *   where one was (`Dark\u0000Magician` is quoted back as `Dark\uFFFDMagician`, not as another,
 *   real name). Tab and line feed are ordinary text in a message.
 * - a bidi embedding, override or isolate is removed. It is invisible, so the member saw the text
 *   without it, and it has honest uses in right-to-left writing, so it is no error to mark; but
 *   echoed, an unclosed one reorders the rest of Almanac's sentence (after `“Dark\u202EMagician”`
 *   the sentence reads backwards). The marks U+200E, U+200F and U+061C stay: they reorder nothing
 *   beyond themselves.
 * - an unpaired surrogate becomes U+FFFD (what `String.prototype.toWellFormed` does, which Node 20's
 *   TypeScript lib does not declare). A lone surrogate is valid in Discord's JSON but not UTF-8:
 *   echoed into a custom_id, an embed or an upstream URL it is mangled or refused. This comes last,
 *   after the removals, so the text it checks is the text sent on.
 */
export function wellFormed(text: string): string {
  if (!MAY_CHANGE.test(text)) return text;
  return text.replace(CONTROL, '\uFFFD').replace(BIDI_CONTROL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** A command's options with their strings made well-formed: a class, as one is made for every interaction. */
class WellFormedOptions implements OptionValues {
  readonly subcommand: string | null;

  constructor(private readonly options: OptionValues) {
    this.subcommand = options.subcommand;
  }

  getString(name: string): string | null {
    const value = this.options.getString(name);
    return value === null ? null : wellFormed(value);
  }

  getBoolean(name: string): boolean | null {
    return this.options.getBoolean(name);
  }

  getInteger(name: string): number | null {
    return this.options.getInteger(name);
  }

  /** An attachment's name and URL are Discord's, not typed by the member; its bytes are read as data. */
  getAttachment(name: string): AttachmentRef | null {
    return this.options.getAttachment(name);
  }

  /** A channel id is Discord's, not typed by the member. */
  getChannel(name: string): string | null {
    return this.options.getChannel(name);
  }
}

/**
 * The interaction with every text a member typed or chose made well-formed (`wellFormed`): the one place at the
 * transport boundary (both transports hand their interactions to the router through it), so no
 * command, renderer or service has to think about it.
 */
export function withWellFormedText(interaction: RoutedInteraction): RoutedInteraction {
  const user = { ...interaction.user, username: wellFormed(interaction.user.username) };
  switch (interaction.kind) {
    case 'chat':
      return { ...interaction, user, options: new WellFormedOptions(interaction.options) };
    case 'autocomplete':
      return {
        ...interaction,
        user,
        options: new WellFormedOptions(interaction.options),
        focused: interaction.focused && { name: interaction.focused.name, value: wellFormed(interaction.focused.value) },
      };
    case 'message':
      return { ...interaction, user, targetMessage: { ...interaction.targetMessage, content: wellFormed(interaction.targetMessage.content) } };
    case 'component':
      return { ...interaction, user, customId: wellFormed(interaction.customId), values: interaction.values.map(wellFormed) };
  }
}
