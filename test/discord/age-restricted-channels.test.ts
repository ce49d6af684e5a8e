import { ChannelType, GatewayDispatchEvents, type GatewayDispatchPayload } from 'discord.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { AgeRestrictedChannels } from '../../src/discord/age-restricted-channels.js';
import { channelOf, type ApiInteraction } from '../../src/discord/api-interaction.js';
import { fakeGuilds, guildChannels, guildCreate } from '../fakes/discord-guilds.js';

const [guild, otherGuild] = fakeGuilds(2) as [ReturnType<typeof fakeGuilds>[number], ReturnType<typeof fakeGuilds>[number]];
const channels = guildChannels(guild);

function dispatch(t: string, d: unknown): GatewayDispatchPayload {
  return { op: 0, s: 1, t, d } as GatewayDispatchPayload;
}

/** An interaction in `channelId` of `guild`, with the channel object Discord sends when given. */
function interactionIn(channelId: string, channel?: { type: number; nsfw?: boolean; parent_id?: string }): ApiInteraction {
  return { id: '1', application_id: '2', token: 't', type: 2, guild_id: guild.id, channel_id: channelId, ...(channel ? { channel: { id: channelId, ...channel } } : {}) };
}

describe('AgeRestrictedChannels', () => {
  let restricted: AgeRestrictedChannels;

  beforeEach(() => {
    restricted = new AgeRestrictedChannels();
    restricted.remember(dispatch(GatewayDispatchEvents.GuildCreate, guildCreate(guild)));
    restricted.remember(dispatch(GatewayDispatchEvents.GuildCreate, guildCreate(otherGuild)));
  });

  it('knows the age-restricted channels of each guild from its GUILD_CREATE', () => {
    expect(restricted.has(guild.id, guild.channels.ageRestricted)).toBe(true);
    expect(restricted.has(guild.id, guild.channels.normal)).toBe(false);
    expect(restricted.has(otherGuild.id, otherGuild.channels.ageRestricted)).toBe(true);
    // A channel is known in its own guild only.
    expect(restricted.has(otherGuild.id, guild.channels.ageRestricted)).toBe(false);
  });

  it('follows channels created, made or unmade age-restricted, and deleted', () => {
    const created = { ...channels.normal, id: '1356000000000000150', nsfw: true };
    restricted.remember(dispatch(GatewayDispatchEvents.ChannelCreate, created));
    expect(restricted.has(guild.id, created.id)).toBe(true);

    restricted.remember(dispatch(GatewayDispatchEvents.ChannelUpdate, { ...channels.normal, nsfw: true }));
    expect(restricted.has(guild.id, guild.channels.normal)).toBe(true);
    restricted.remember(dispatch(GatewayDispatchEvents.ChannelUpdate, { ...channels.ageRestricted, nsfw: false }));
    expect(restricted.has(guild.id, guild.channels.ageRestricted)).toBe(false);

    restricted.remember(dispatch(GatewayDispatchEvents.ChannelDelete, created));
    expect(restricted.has(guild.id, created.id)).toBe(false);
  });

  it('forgets a guild that is deleted, and starts afresh from a new GUILD_CREATE', () => {
    restricted.remember(dispatch(GatewayDispatchEvents.ChannelCreate, { ...channels.normal, id: '1356000000000000150', nsfw: true }));
    restricted.remember(dispatch(GatewayDispatchEvents.GuildDelete, { id: guild.id, unavailable: false }));
    expect(restricted.has(guild.id, guild.channels.ageRestricted)).toBe(false);
    expect(restricted.has(otherGuild.id, otherGuild.channels.ageRestricted)).toBe(true);

    restricted.remember(dispatch(GatewayDispatchEvents.GuildCreate, guildCreate(guild)));
    expect(restricted.has(guild.id, guild.channels.ageRestricted)).toBe(true);
    expect(restricted.has(guild.id, '1356000000000000150')).toBe(false);
  });

  describe('channelOf, in gateway mode', () => {
    const thread = { type: ChannelType.PublicThread, parent_id: guild.channels.ageRestricted };
    const gateway = { ageRestricted: (guildId: string, channelId: string) => restricted.has(guildId, channelId) };

    it('gates a thread whose parent is age-restricted, and no other thread', () => {
      expect(channelOf(interactionIn(guild.channels.thread, thread), gateway)).toEqual({ id: guild.channels.thread, kind: 'thread', ageRestricted: true, guildId: guild.id, parentId: guild.channels.ageRestricted });
      const normalThread = { type: ChannelType.PublicThread, parent_id: guild.channels.normal };
      expect(channelOf(interactionIn(guild.channels.normalThread, normalThread), gateway).ageRestricted).toBe(false);
      // A thread whose parent is unknown (a server Almanac is not in, or no parent sent) is not.
      expect(channelOf(interactionIn(guild.channels.thread, { type: ChannelType.PrivateThread }), gateway).ageRestricted).toBe(false);
    });

    it('follows the parent: made age-restricted, then deleted', () => {
      const normalThread = { type: ChannelType.PublicThread, parent_id: guild.channels.normal };
      restricted.remember(dispatch(GatewayDispatchEvents.ChannelUpdate, { ...channels.normal, nsfw: true }));
      expect(channelOf(interactionIn(guild.channels.normalThread, normalThread), gateway).ageRestricted).toBe(true);
      restricted.remember(dispatch(GatewayDispatchEvents.ChannelDelete, channels.ageRestricted));
      expect(channelOf(interactionIn(guild.channels.thread, thread), gateway).ageRestricted).toBe(false);
    });

    it('takes a channel’s own flag from the interaction, and from the dispatches when the interaction has none', () => {
      const text = { type: ChannelType.GuildText };
      expect(channelOf(interactionIn(guild.channels.normal, { ...text, nsfw: true }), gateway).ageRestricted).toBe(true);
      expect(channelOf(interactionIn(guild.channels.ageRestricted, { ...text, nsfw: false }), gateway).ageRestricted).toBe(false);
      expect(channelOf(interactionIn(guild.channels.ageRestricted, text), gateway)).toEqual({ id: guild.channels.ageRestricted, kind: 'guild', ageRestricted: true, guildId: guild.id });
      expect(channelOf(interactionIn(guild.channels.normal), gateway).ageRestricted).toBe(false);
    });

    it('in HTTP mode (no dispatches) counts a thread, and a channel sent without its flag, as not age-restricted', () => {
      expect(channelOf(interactionIn(guild.channels.thread, thread)).ageRestricted).toBe(false);
      expect(channelOf(interactionIn(guild.channels.ageRestricted)).ageRestricted).toBe(false);
      expect(channelOf(interactionIn(guild.channels.normal, { type: ChannelType.GuildText, nsfw: true })).ageRestricted).toBe(true);
    });
  });
});
