import {
  ChannelType,
  type BaseInteraction,
  type CommandInteractionOptionResolver,
} from 'discord.js';
import type { ChannelInfo, Invoker, OptionValues } from '../command.js';

export function invokerOf(interaction: BaseInteraction): Invoker {
  return { id: interaction.user.id, username: interaction.user.username, locale: interaction.locale };
}

/**
 * Where the interaction happened. The age-restricted flag comes from the channel Discord sent with
 * the interaction (or the cached one); a thread takes its parent's flag. Unknown channels count as
 * not age-restricted: the safe side for gating.
 */
export function channelOf(interaction: BaseInteraction): ChannelInfo {
  const channel = interaction.channel;
  const id = interaction.channelId ?? 'unknown';
  if (!interaction.inGuild() || channel?.type === ChannelType.DM || channel?.type === ChannelType.GroupDM) {
    return { id, kind: 'dm', ageRestricted: false };
  }
  if (channel?.isThread()) {
    const parent = channel.parent;
    return { id, kind: 'thread', ageRestricted: parent !== null && 'nsfw' in parent && parent.nsfw === true };
  }
  const nsfw = channel !== null && 'nsfw' in channel && channel.nsfw === true;
  return { id, kind: 'guild', ageRestricted: nsfw };
}

type ResolverLike = Pick<CommandInteractionOptionResolver, 'getSubcommand' | 'getString' | 'getBoolean' | 'getInteger'>;

export function optionsOf(resolver: ResolverLike): OptionValues {
  return {
    subcommand: resolver.getSubcommand(false),
    getString: (name) => resolver.getString(name),
    getBoolean: (name) => resolver.getBoolean(name),
    getInteger: (name) => resolver.getInteger(name),
  };
}
