import type {
  AutocompleteInteraction as DiscordAutocomplete,
  CommandInteraction,
  Interaction,
  MessageComponentInteraction,
} from 'discord.js';
import { MessageFlags, ShardClientUtil } from 'discord.js';
import { appPermissionsOf, attachmentRef, channelOf, installationOf, invokerOf, memberPermissionsOf, optionsOf } from './context.js';
import type { InteractionResponder, RoutedInteraction } from '../interaction/routed-interaction.js';
import { toEditOptions, toMessageOptions, toReplyOptions } from './payload.js';
import type { RawInteractionChannels } from './raw-channels.js';

/**
 * Gateway mode: a discord.js interaction as the router sees it, or undefined for kinds Almanac never
 * gets. `rawChannels`: the channel objects Discord sent, for servers whose channels discord.js does
 * not cache (user install).
 */
export function fromDiscordJs(interaction: Interaction, rawChannels?: RawInteractionChannels): RoutedInteraction | undefined {
  const common = (responder: InteractionResponder) => ({
    id: interaction.id,
    shardId: shardOf(interaction),
    user: invokerOf(interaction),
    channel: channelOf(interaction, rawChannels?.take(interaction.id)),
    installation: installationOf(interaction),
    appPermissions: appPermissionsOf(interaction),
    memberPermissions: memberPermissionsOf(interaction),
    responder,
  });
  if (interaction.isAutocomplete()) {
    return {
      kind: 'autocomplete',
      ...common(autocompleteResponder(interaction)),
      commandName: interaction.commandName,
      options: optionsOf(interaction.options),
      focused: focusedOption(interaction),
    };
  }
  if (interaction.isChatInputCommand()) {
    return {
      kind: 'chat',
      ...common(repliableResponder(interaction)),
      commandName: interaction.commandName,
      options: optionsOf(interaction.options),
    };
  }
  if (interaction.isMessageContextMenuCommand()) {
    return {
      kind: 'message',
      ...common(repliableResponder(interaction)),
      commandName: interaction.commandName,
      targetMessage: {
        id: interaction.targetMessage.id,
        content: interaction.targetMessage.content,
        attachments: interaction.targetMessage.attachments.map(attachmentRef),
      },
    };
  }
  if (interaction.isMessageComponent()) {
    const metadata = interaction.message.interactionMetadata;
    return {
      kind: 'component',
      ...common(repliableResponder(interaction)),
      customId: interaction.customId,
      values: interaction.isAnySelectMenu() ? interaction.values : [],
      message: {
        id: interaction.message.id,
        createdTimestamp: interaction.message.createdTimestamp,
        ownerId: metadata?.user.id ?? null,
        rootId: metadata?.id ?? interaction.message.id,
      },
    };
  }
  return undefined;
}

function focusedOption(interaction: DiscordAutocomplete): { name: string; value: string } | null {
  try {
    const focused = interaction.options.getFocused(true);
    return { name: focused.name, value: String(focused.value) };
  } catch {
    // discord.js throws when no option is marked focused.
    return null;
  }
}

/** Discord's rule: a guild's events come on shard `(guild_id >> 22) % shard_count`, DMs on shard 0. */
function shardOf(interaction: Interaction): number {
  const { guildId } = interaction;
  return guildId ? ShardClientUtil.shardIdForGuildId(guildId, interaction.client.options.shardCount ?? 1) : 0;
}

function unsupported(what: string): never {
  throw new TypeError(`${what} is not possible on this kind of interaction`);
}

function repliableResponder(interaction: CommandInteraction | MessageComponentInteraction): InteractionResponder {
  return {
    get deferred() {
      return interaction.deferred;
    },
    get replied() {
      return interaction.replied;
    },
    reply: async (reply) => void (await interaction.reply(toReplyOptions(reply))),
    deferReply: async ({ ephemeral }) => void (await interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {})),
    deferUpdate: async () =>
      interaction.isMessageComponent() ? void (await interaction.deferUpdate()) : unsupported('deferUpdate'),
    update: async (payload) =>
      interaction.isMessageComponent() ? void (await interaction.update(toMessageOptions(payload))) : unsupported('update'),
    respond: () => unsupported('respond'),
    editReply: async (edit) => void (await interaction.editReply(toEditOptions(edit))),
    deleteReply: async () => interaction.deleteReply(),
    followUp: async (reply) => {
      const message = await interaction.followUp(toReplyOptions(reply));
      return { id: message.id };
    },
    editFollowUp: async (messageId, edit) => void (await interaction.webhook.editMessage(messageId, toEditOptions(edit))),
  };
}

function autocompleteResponder(interaction: DiscordAutocomplete): InteractionResponder {
  return {
    get deferred() {
      return false;
    },
    get replied() {
      return interaction.responded;
    },
    reply: () => unsupported('reply'),
    deferReply: () => unsupported('deferReply'),
    deferUpdate: () => unsupported('deferUpdate'),
    update: () => unsupported('update'),
    respond: async (choices) => interaction.respond(choices),
    editReply: () => unsupported('editReply'),
    deleteReply: () => unsupported('deleteReply'),
    followUp: () => unsupported('followUp'),
    editFollowUp: () => unsupported('editFollowUp'),
  };
}
