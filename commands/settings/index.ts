import { ChannelType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import type { AppServices } from '../../src/app/services.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import { DEFAULT_CHOICE } from '../../src/settings/settings.js';
import { languageSuggestions } from './language.js';
import { change } from './change.js';
import { show } from './show.js';

/** Channels a setting can be made for: where Almanac answers and cards are named. */
const SETTING_CHANNELS = [ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum, ChannelType.GuildVoice, ChannelType.GuildStageVoice, ChannelType.GuildMedia] as const;

/**
 * `/settings`: a server's choices (members with Manage Server: Discord hides it from others by
 * `default_member_permissions`, and `change.ts` refuses them anyway), or a member's own in DMs and
 * user installs. `change.ts` stores a choice, `show.ts` says what applies, `language.ts` offers languages.
 */
export const settings: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('settings')
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setDescription('Almanac’s settings for this server, one channel, or yourself')
    .addSubcommand((sub) =>
      sub
        .setName('language')
        .setDescription('The language of public answers and cards named inline')
        .addStringOption((option) => option.setName('language').setDescription('A language, or Default').setRequired(true).setAutocomplete(true).setMaxLength(100))
        .addChannelOption((option) => option.setName('channel').setDescription('Only this channel (default: the whole server)').addChannelTypes(...SETTING_CHANNELS)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('inline-cards')
        .setDescription('Answer cards named inline in messages, or not')
        .addBooleanOption((option) => option.setName('enabled').setDescription('On or off').setRequired(true))
        .addChannelOption((option) => option.setName('channel').setDescription('Only this channel (default: the whole server)').addChannelTypes(...SETTING_CHANNELS)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('ip-answers')
        .setDescription('Who sees /ip lookup and /ip time answers by default (their public option still wins)')
        .addStringOption((option) =>
          option
            .setName('visibility')
            .setDescription('Public, private, or each subcommand’s own default')
            .setRequired(true)
            .addChoices({ name: 'public', value: 'public' }, { name: 'private', value: 'private' }, { name: 'default', value: DEFAULT_CHOICE }),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('wallpaper-purity')
        .setDescription('The most a channel may show; never more than it allows')
        .addStringOption((option) =>
          option
            .setName('purity')
            .setDescription('The ceiling, or Default for none')
            .setRequired(true)
            .addChoices({ name: 'SFW', value: 'sfw' }, { name: 'sketchy', value: 'sketchy' }, { name: 'NSFW', value: 'nsfw' }, { name: 'default', value: DEFAULT_CHOICE }),
        )
        .addChannelOption((option) => option.setName('channel').setDescription('Only this channel (default: the whole server)').addChannelTypes(...SETTING_CHANNELS)),
    )
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription('What applies here, and where each value comes from')
        .addChannelOption((option) => option.setName('channel').setDescription('Another channel of this server').addChannelTypes(...SETTING_CHANNELS)),
    )
    .toJSON(),
  execute(ctx, app) {
    return ctx.options.subcommand === 'show' ? show(ctx, app) : change(ctx, app);
  },
  autocomplete(ctx) {
    return Promise.resolve(ctx.focused.name === 'language' ? languageSuggestions(ctx.focused.value, ctx.user.locale) : []);
  },
};
