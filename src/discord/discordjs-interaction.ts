import type { AutocompleteInteraction as DiscordAutocomplete, Interaction } from 'discord.js';
import { Routes, ShardClientUtil } from 'discord.js';
import { appPermissionsOf, attachmentRef, channelOf, installationOf, invokerOf, memberPermissionsOf, optionsOf } from './context.js';
import type { RoutedInteraction } from '../interaction/routed-interaction.js';
import { DiscordResponder, initialResponseJson, type InitialResponse } from './responder.js';
import { messageRequest } from './rest-request.js';
import { routeId, routeToken } from './route-parts.js';
import type { AgeRestrictedChannels } from './age-restricted-channels.js';
import type { RawInteractionChannels } from './raw-channels.js';
import type { WebhookWriter } from './webhook-writer.js';

/** What says where an interaction happened: discord.js caches no channels (src/discord/client.ts). */
export interface InteractionChannels {
  /** The channel objects Discord sent with the interactions. */
  raw: RawInteractionChannels;
  /** Which channels of Almanac's guilds are age-restricted: a thread's parent, for one. */
  ageRestricted: AgeRestrictedChannels;
}

/**
 * Gateway mode: a discord.js interaction as the router sees it, or undefined for kinds Almanac never
 * gets. It is answered through its callback route and `webhooks`, as in HTTP mode.
 */
export function fromDiscordJs(interaction: Interaction, webhooks: WebhookWriter, channels: InteractionChannels): RoutedInteraction | undefined {
  const common = {
    id: interaction.id,
    shardId: shardOf(interaction),
    user: invokerOf(interaction),
    channel: channelOf(interaction, channels.raw.take(interaction.id), channels.ageRestricted),
    installation: installationOf(interaction),
    appPermissions: appPermissionsOf(interaction),
    memberPermissions: memberPermissionsOf(interaction),
    responder: callbackResponder(interaction, webhooks),
  };
  if (interaction.isAutocomplete()) {
    return {
      kind: 'autocomplete',
      ...common,
      commandName: interaction.commandName,
      options: optionsOf(interaction.options),
      focused: focusedOption(interaction),
    };
  }
  if (interaction.isChatInputCommand()) {
    return {
      kind: 'chat',
      ...common,
      commandName: interaction.commandName,
      options: optionsOf(interaction.options),
    };
  }
  if (interaction.isMessageContextMenuCommand()) {
    return {
      kind: 'message',
      ...common,
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
      ...common,
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

/** The interaction's callback route takes the acknowledgement, as discord.js would send it. */
function callbackResponder(interaction: Interaction, webhooks: WebhookWriter): DiscordResponder {
  const send = async (response: InitialResponse) => {
    await interaction.client.rest.post(Routes.interactionCallback(routeId(interaction.id), routeToken(interaction.token)), {
      ...messageRequest(initialResponseJson(response), response.files),
      auth: false,
    });
  };
  return new DiscordResponder({ applicationId: interaction.applicationId, token: interaction.token }, webhooks, send);
}
