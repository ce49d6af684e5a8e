import type { OptionValues } from './context.js';
import type { RoutedInteraction } from './routed-interaction.js';

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with every unpaired surrogate replaced by U+FFFD (what `String.prototype.toWellFormed`
 * does, which Node 20's TypeScript lib does not declare). A lone surrogate is valid in Discord's
 * JSON but not UTF-8: echoed into a custom_id, an embed or an upstream URL it is mangled or refused.
 */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

function wellFormedOptions(options: OptionValues): OptionValues {
  return {
    subcommand: options.subcommand,
    getString: (name) => {
      const value = options.getString(name);
      return value === null ? null : wellFormed(value);
    },
    getBoolean: (name) => options.getBoolean(name),
    getInteger: (name) => options.getInteger(name),
  };
}

/**
 * The interaction with every text a member typed or chose made well-formed: the one place at the
 * transport boundary (both transports hand their interactions to the router through it), so no
 * command, renderer or service has to think about it.
 */
export function withWellFormedText(interaction: RoutedInteraction): RoutedInteraction {
  const user = { ...interaction.user, username: wellFormed(interaction.user.username) };
  switch (interaction.kind) {
    case 'chat':
      return { ...interaction, user, options: wellFormedOptions(interaction.options) };
    case 'autocomplete':
      return {
        ...interaction,
        user,
        options: wellFormedOptions(interaction.options),
        focused: interaction.focused && { name: interaction.focused.name, value: wellFormed(interaction.focused.value) },
      };
    case 'message':
      return { ...interaction, user, targetMessage: { ...interaction.targetMessage, content: wellFormed(interaction.targetMessage.content) } };
    case 'component':
      return { ...interaction, user, customId: wellFormed(interaction.customId), values: interaction.values.map(wellFormed) };
  }
}
