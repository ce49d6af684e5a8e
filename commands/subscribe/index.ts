import { PermissionFlagsBits, SlashCommandBuilder, type SlashCommandSubcommandBuilder } from 'discord.js';
import { withBanlistFormatOption } from '../../src/cards/banlist-option.js';
import { withFilterOptions } from '../../src/cards/filter-options.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { SERVER_INSTALL_ONLY } from '../../src/interaction/install-scopes.js';
import type { AppServices } from '../../src/app/services.js';
import { addCardOfTheDay, addWallpaperOfTheDay } from './add.js';
import { addBanlist } from './banlist.js';
import { addWallpapers } from './wallpapers.js';
import { addNewSets } from './new-sets.js';
import { subscribeAutocomplete } from './autocomplete.js';
import { list } from './list.js';
import { remove } from './remove.js';

/**
 * `/subscribe`: what a channel gets on its own, every day at a time in a time zone, or when a ban list, the card sets or Wallhaven's uploads change. Members with
 * Manage Channels in the channel (checked again on every use; the default permission only hides
 * the command from others). One file per subcommand; the scheduler (src/scheduler) posts.
 */

/** `time` and `timezone`, the schedule every daily subscription takes. */
function withSchedule(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return sub
    .addStringOption((option) => option.setName('time').setDescription('Time of day, 24-hour HH:MM (e.g. 09:30)').setRequired(true).setMaxLength(5))
    .addStringOption((option) =>
      option.setName('timezone').setDescription('IANA time zone, e.g. Europe/Paris or America/New_York').setRequired(true).setAutocomplete(true).setMaxLength(64),
    );
}

export const subscribe: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('subscribe')
    .setIntegrationTypes(...SERVER_INSTALL_ONLY.integrationTypes)
    .setContexts(...SERVER_INSTALL_ONLY.contexts)
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageChannels)
    .setDescription('Posts in this channel: a card or wallpaper of the day, ban-list changes, new sets or wallpapers')
    .addSubcommand((sub) =>
      withFilterOptions(withSchedule(sub.setName('card-of-the-day').setDescription('A card every day, none repeated until the filters run out'))),
    )
    .addSubcommand((sub) => withSchedule(sub.setName('wallpaper-of-the-day').setDescription("Every day, the best of Wallhaven's last day not posted here in 90 days")))
    .addSubcommand((sub) =>
      withBanlistFormatOption(sub.setName('banlist').setDescription('A post each time a format’s ban list changes, with the decks shown here it makes illegal')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('wallpapers')
        .setDescription('New Wallhaven uploads of a search or a tag, checked every 30 minutes at most')
        .addStringOption((option) => option.setName('query').setDescription('A search, as in /wallpaper search').setMaxLength(200))
        .addStringOption((option) => option.setName('tag').setDescription('A tag: its name, or its Wallhaven id for that tag exactly').setMaxLength(200)),
    )
    .addSubcommand((sub) => sub.setName('new-sets').setDescription('Card sets YGOPRODeck lists from now on, with their image'))
    .addSubcommand((sub) => sub.setName('list').setDescription("This channel's subscriptions, their next post, and why any is paused"))
    .addSubcommand((sub) =>
      sub
        .setName('remove')
        .setDescription('Stop one of this channel’s subscriptions')
        .addStringOption((option) => option.setName('subscription').setDescription('Which one').setRequired(true).setAutocomplete(true).setMaxLength(20)),
    )
    .toJSON(),
  execute(ctx, app) {
    switch (ctx.options.subcommand) {
      case 'card-of-the-day':
        return addCardOfTheDay(ctx, app);
      case 'wallpaper-of-the-day':
        return addWallpaperOfTheDay(ctx, app);
      case 'banlist':
        return addBanlist(ctx, app);
      case 'wallpapers':
        return addWallpapers(ctx, app);
      case 'new-sets':
        return addNewSets(ctx, app);
      case 'remove':
        return remove(ctx, app);
      default:
        return list(ctx, app);
    }
  },
  autocomplete: subscribeAutocomplete,
};
