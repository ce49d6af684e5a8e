import { ApplicationCommandOptionType, SlashCommandBuilder, type RESTPostAPIChatInputApplicationCommandsJSONBody, type SlashCommandStringOption } from 'discord.js';
import type { ChatInputCommand } from '../../src/interaction/command.js';
import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { en } from '../../src/i18n/en.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { EVERYWHERE } from '../../src/interaction/install-scopes.js';
import type { AppServices } from '../../src/app/services.js';
import { isTagMenuId, parseCardColoursId, parseCollectionListPageId, parseCollectionMenuId, parseMoreLikeId, parseUploadsById } from '../../src/wallpaper/component-ids.js';
import { MAX_USERNAME_LENGTH } from '../../src/wallpaper/collections.js';
import { decodePagerId, isGridAction, PAGER_PREFIX } from '../../src/wallpaper/pager-state.js';
import { MAX_QUERY_LENGTH, RATIO_CHOICES, SORTING_CHOICES, TOPLIST_RANGES } from '../../src/wallpaper/search.js';
import { CATEGORY_CHOICES, colourSuggestions, resolutionSuggestions } from '../../src/wallpaper/search-options.js';
import { listCollections, openCollection, pageCollectionList } from './collections.js';
import { cardColours } from './colours.js';
import { grid } from './grid.js';
import { page } from './page.js';
import { randomWallpaper } from './random.js';
import { listTag, moreLikeThis, uploadsBy } from './related.js';
import { searchWallpapers } from './search.js';
import { showWallpaper } from './show.js';

/** `/wallpaper`: its definition, and which file answers each subcommand and component. */

/** Every `wp:` component: "More like this", a detail view's tag menu or "Uploads by …", a list of collections, a listing's grid, a card artwork's colours, or the ◀ ▶ of a listing. */
function handleComponent(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const similarTo = parseMoreLikeId(ctx.customId);
  if (similarTo !== null) return moreLikeThis(ctx, app, similarTo);
  if (isTagMenuId(ctx.customId)) return listTag(ctx, app);
  const uploader = parseUploadsById(ctx.customId);
  if (uploader !== null) return uploadsBy(ctx, app, uploader);
  const collectionsOf = parseCollectionMenuId(ctx.customId);
  if (collectionsOf !== null) return openCollection(ctx, app, collectionsOf);
  const listPage = parseCollectionListPageId(ctx.customId);
  if (listPage !== null) return pageCollectionList(ctx, app, listPage);
  const colours = parseCardColoursId(ctx.customId);
  if (colours !== null) return cardColours(ctx, app, colours);
  const state = decodePagerId(ctx.customId);
  if (state !== null && isGridAction(state.action)) return grid(ctx, app, { ...state, action: state.action });
  return page(ctx, app);
}

/** `ai-art`, on search and random: registered only with `WALLHAVEN_AI_FILTER=true` (see `withoutAiArt`). */
const aiArtOption = (option: SlashCommandStringOption) =>
  option
    .setName(AI_ART_OPTION)
    .setDescription('Show or hide AI-generated art')
    .addChoices({ name: 'include', value: 'include' }, { name: 'exclude', value: 'exclude' });

const AI_ART_OPTION = 'ai-art';

/**
 * The registered `/wallpaper` without the `ai-art` option: what an operator who has not turned
 * `WALLHAVEN_AI_FILTER` on registers, since Wallhaven's values for it are not confirmed.
 */
export function withoutAiArt(data: RESTPostAPIChatInputApplicationCommandsJSONBody): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return {
    ...data,
    options: data.options?.map((sub) =>
      sub.type === ApplicationCommandOptionType.Subcommand ? { ...sub, options: sub.options?.filter((option) => option.name !== AI_ART_OPTION) } : sub,
    ),
  };
}

const choices = <T extends string>(values: readonly T[]) => values.map((value) => ({ name: value, value }));

export const wallpaper: ChatInputCommand<AppServices> = {
  kind: 'chat',
  data: new SlashCommandBuilder()
    .setName('wallpaper')
    .setIntegrationTypes(...EVERYWHERE.integrationTypes)
    .setContexts(...EVERYWHERE.contexts)
    .setDescription('Search, show and pick wallpapers from Wallhaven')
    // Usable everywhere for SFW; sketchy and NSFW are gated in code, per channel.
    .setNSFW(false)
    .addSubcommand((sub) =>
      sub
        .setName('search')
        .setDescription('Search Wallhaven and page through the results one wallpaper at a time')
        .addStringOption((option) => option.setName('query').setDescription('Tags or words, e.g. "mountains -snow" or "@username"').setMaxLength(MAX_QUERY_LENGTH))
        .addStringOption((option) => option.setName('uploader').setDescription('A Wallhaven username: their uploads (instead of a query)').setMaxLength(MAX_USERNAME_LENGTH + 1))
        .addStringOption((option) => option.setName('category').setDescription('General, anime, people, or a combination (default: all)').addChoices(...CATEGORY_CHOICES))
        .addStringOption((option) =>
          option
            .setName('purity')
            .setDescription('sfw (default); sketchy and nsfw only in age-restricted channels')
            .addChoices({ name: 'sfw', value: 'sfw' }, { name: 'sketchy', value: 'sketchy' }, { name: 'nsfw', value: 'nsfw' }),
        )
        .addStringOption((option) => option.setName('resolution').setDescription('Minimum size, e.g. 1920x1080').setAutocomplete(true).setMaxLength(20))
        .addStringOption((option) => option.setName('ratio').setDescription('Aspect ratio').addChoices(...choices(RATIO_CHOICES)))
        .addStringOption((option) => option.setName('sorting').setDescription('Order of results (default: relevance with a query, else newest)').addChoices(...choices(SORTING_CHOICES)))
        .addStringOption((option) =>
          option
            .setName('toplist')
            .setDescription('The toplist of a period (implies sorting: toplist)')
            .addChoices(...TOPLIST_RANGES.map((value) => ({ name: en.wallpaper.topRanges[value], value }))),
        )
        .addStringOption((option) => option.setName('color').setDescription('A main colour, from Wallhaven’s palette of 29').setAutocomplete(true).setMaxLength(40))
        .addStringOption(aiArtOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('show')
        .setDescription("A wallpaper's details: uploader, tags and the full image")
        .addStringOption((option) =>
          option.setName('id').setDescription('Wallpaper id (e.g. 6dk8yq) or its wallhaven.cc/w/… or whvn.cc/… link').setRequired(true).setMaxLength(200),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('random')
        .setDescription('A random SFW wallpaper')
        .addStringOption((option) => option.setName('query').setDescription('Tags or words to pick from').setMaxLength(MAX_QUERY_LENGTH))
        .addStringOption((option) => option.setName('category').setDescription('General, anime, people, or a combination (default: all)').addChoices(...CATEGORY_CHOICES))
        .addStringOption(aiArtOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('collections')
        .setDescription('A Wallhaven user’s public collections; open one and page through it')
        .addStringOption((option) => option.setName('user').setDescription('Their Wallhaven username, as in wallhaven.cc/user/…').setRequired(true).setMaxLength(MAX_USERNAME_LENGTH + 1)),
    )
    .toJSON(),
  execute(ctx, app) {
    switch (ctx.options.subcommand) {
      case 'show':
        return showWallpaper(ctx, app);
      case 'random':
        return randomWallpaper(ctx, app);
      case 'collections':
        return listCollections(ctx, app);
      default:
        return searchWallpapers(ctx, app);
    }
  },
  // Never waits on an upstream: suggestions are fixed lists.
  async autocomplete(ctx) {
    if (ctx.focused.name === 'color') return colourSuggestions(ctx.focused.value, messagesFor(ctx.user.locale));
    return ctx.focused.name === 'resolution' ? resolutionSuggestions(ctx.focused.value) : [];
  },
  componentPrefix: PAGER_PREFIX,
  handleComponent,
};
