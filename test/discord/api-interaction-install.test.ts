import { InteractionContextType, InteractionType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { InteractionResponder } from '../../src/interaction/routed-interaction.js';
import { parseApiInteraction, toRoutedInteraction } from '../../src/discord/api-interaction.js';

const responder = {} as InteractionResponder;
const user = { id: '200', username: 'tester' };

/** A `/status` payload as Discord posts it, with the install fields under test. */
function routed(fields: Record<string, unknown>) {
  const payload = parseApiInteraction({ id: '1', application_id: '2', token: 't', type: InteractionType.ApplicationCommand, data: { name: 'status', type: 1 }, ...fields });
  if (!payload) throw new Error('payload rejected');
  const interaction = toRoutedInteraction(payload, responder);
  if (!interaction) throw new Error('not routed');
  return interaction;
}

describe('HTTP mode: installation and app permissions from the payload', () => {
  it('reads a server install used in that server, with Attach Files', () => {
    const interaction = routed({
      guild_id: '100',
      member: { user },
      context: InteractionContextType.Guild,
      authorizing_integration_owners: { 0: '100' },
      app_permissions: (PermissionFlagsBits.AttachFiles | PermissionFlagsBits.EmbedLinks).toString(),
    });
    expect(interaction.installation).toEqual({ context: 'guild', byGuild: true });
    // No View Channel and Send Messages: Almanac could not post on its own there (subscriptions).
    expect(interaction.appPermissions).toEqual({ attachFiles: true, postEmbeds: false });
    const poster = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
    expect(routed({ guild_id: '100', member: { user }, app_permissions: poster.toString() }).appPermissions).toEqual({ attachFiles: false, postEmbeds: true });
    expect(interaction.channel.guildId).toBe('100');
  });

  it('reads a user install in a group DM, without Attach Files', () => {
    const interaction = routed({
      user,
      context: InteractionContextType.PrivateChannel,
      authorizing_integration_owners: { 1: user.id },
      app_permissions: PermissionFlagsBits.EmbedLinks.toString(),
    });
    expect(interaction.installation).toEqual({ context: 'private_channel', byGuild: false });
    expect(interaction.appPermissions).toEqual({ attachFiles: false, postEmbeds: false });
  });

  it('grants nothing for a missing or malformed bitfield, and falls back on the guild for a missing context', () => {
    expect(routed({ user, app_permissions: 'not a number' }).appPermissions).toEqual({ attachFiles: false, postEmbeds: false });
    const old = routed({ guild_id: '100', member: { user } });
    expect(old.installation).toEqual({ context: 'guild', byGuild: false });
    expect(old.appPermissions).toEqual({ attachFiles: false, postEmbeds: false });
  });

  it('reads Manage Server and Manage Channels from the member’s permissions only; none outside a server or when malformed', () => {
    const manager = routed({ guild_id: '100', member: { user, permissions: (PermissionFlagsBits.ManageGuild | PermissionFlagsBits.SendMessages).toString() } });
    expect(manager.memberPermissions).toEqual({ manageServer: true, manageChannels: false });
    const channelManager = routed({ guild_id: '100', member: { user, permissions: PermissionFlagsBits.ManageChannels.toString() } });
    expect(channelManager.memberPermissions).toEqual({ manageServer: false, manageChannels: true });
    expect(routed({ guild_id: '100', member: { user, permissions: PermissionFlagsBits.SendMessages.toString() } }).memberPermissions).toEqual({ manageServer: false, manageChannels: false });
    expect(routed({ guild_id: '100', member: { user, permissions: '1e9' } }).memberPermissions).toEqual({ manageServer: false, manageChannels: false });
    // app_permissions describe the bot, never the member.
    expect(routed({ user, app_permissions: PermissionFlagsBits.ManageGuild.toString() }).memberPermissions).toEqual({ manageServer: false, manageChannels: false });
  });
});
