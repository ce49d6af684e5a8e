import { SlashCommandBuilder } from 'discord.js';
import type { ChatInputCommand } from '../src/interaction/command.js';
import type { ChatInputContext, ComponentContext, ComponentResult } from '../src/interaction/context.js';
import { chatAcknowledger, componentAcknowledger, deferWithWaitNote, type Acknowledger } from '../src/interaction/deferral.js';
import { MemberShareSpent, UserError } from '../src/interaction/errors.js';
import type { Reply } from '../src/interaction/reply.js';
import { isUpstreamError } from '../src/interaction/upstream-error.js';
import type { Catalogue } from '../src/i18n/catalogue.js';
import { en } from '../src/i18n/en.js';
import { messagesFor } from '../src/i18n/messages.js';
import { EVERYWHERE } from '../src/interaction/install-scopes.js';
import { describeFailure } from '../src/render/errors.js';
import { noResultsSentence, queueNote, renderPager, renderRandomWallpaper, renderWallpaperDetail } from '../src/render/wallpaper.js';
import type { AppServices } from '../src/app/services.js';
import { purityAllowed } from '../src/wallpaper/gating.js';
import { activityTime, decodePagerId, DEFAULT_PAGE_SIZE, longQueryKey, PAGER_PREFIX, queryRefFor, type PagerSearch, type QueryRef } from '../src/wallpaper/pager-state.js';
import { isPastLastPage, locateResult, PAGER_IDLE_LIMIT_MS, summaryOf, targetOf, type LocatedResult } from '../src/wallpaper/paging.js';
import { MAX_QUERY_LENGTH, RATIO_CHOICES, SORTING_CHOICES, TOPLIST_RANGES } from '../src/wallpaper/search.js';
import { CATEGORY_CHOICES, colourSuggestions, parseCategories, parseQuery, readSearchOptions, resolutionSuggestions, type ParseResult } from '../src/wallpaper/search-options.js';
import { parseWallpaperId } from '../src/wallpaper/wallhaven-site.js';

/** How the query travels in the pager's buttons; a query too long for them is stored for the whole fleet first. */
async function queryRef(app: AppServices, text: string | undefined, filters: Omit<PagerSearch, 'query'>): Promise<QueryRef> {
  const ref = queryRefFor(text, filters, { remember: longQueryKey });
  if (ref.kind === 'stored' && text !== undefined) await app.state.longQueries.remember(text);
  return ref;
}

function valueOf<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new UserError(result.reason);
  return result.value;
}

/**
 * Runs `work`, which may queue behind Wallhaven's limiter: a long expected wait is said at once, in
 * the words of `messages`; otherwise the interaction is deferred only when the work is slow.
 */
function waitForWallhaven<T>(app: AppServices, acknowledge: Acknowledger, messages: Catalogue, work: () => Promise<T>): Promise<T> {
  return deferWithWaitNote(acknowledge, { expectedWaitMs: app.wallhaven.expectedWaitMs(), note: (ms) => queueNote(ms, messages) }, work);
}

/** The pager's result at `index`, each page it needs spending the member's share of Wallhaven. */
function locate(app: AppServices, userId: string, search: PagerSearch, query: string | undefined, index: number, pageSize: number, direction: 'next' | 'prev' | 'stay'): Promise<LocatedResult | null> {
  const share = app.memberShares.spenderFor(userId, 'wallhaven');
  return locateResult((page) => app.wallhaven.search(page, share), search, query, index, pageSize, direction);
}

async function searchWallpapers(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const { search: filters, query } = valueOf(readSearchOptions(ctx.options));
  const messages = messagesFor(ctx.user.locale);
  const decision = purityAllowed(filters.purity, ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  const lastActivityMs = activityTime(app.clock.now().getTime());
  const search: PagerSearch = { ...filters, query: await queryRef(app, query, filters) };
  // Search, show and random answer in the channel: the wait note is public like the answer.
  const located = await waitForWallhaven(app, chatAcknowledger(ctx, false), messages, () =>
    locate(app, ctx.user.id, search, query, 0, DEFAULT_PAGE_SIZE, 'stay'),
  );
  if (located === null || located.page.total === 0) throw new UserError((t) => noResultsSentence(summaryOf(search, query), t));
  // Wallhaven may answer with a seed of its own: later pages must use the one page 1 was sorted by.
  if (search.sorting === 'random' && located.page.seed !== null) search.seed = located.page.seed;
  return renderPager({ search, query, located, lastActivityMs, channel: ctx.channel, nsfwAvailable: app.wallhaven.nsfwAvailable, expired: false, messages });
}

async function showWallpaper(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const parsed = parseWallpaperId(ctx.options.getString('id') ?? '');
  if (!parsed.ok) throw new UserError((t) => t.wallpaper.notAWallpaper(parsed.reason));
  const messages = messagesFor(ctx.user.locale);
  const hasKey = app.wallhaven.nsfwAvailable;
  let result;
  try {
    result = await waitForWallhaven(app, chatAcknowledger(ctx, false), messages, () =>
      app.wallhaven.detail(parsed.id, app.memberShares.spenderFor(ctx.user.id, 'wallhaven')),
    );
  } catch (error) {
    if (isUpstreamError(error, 'not_found')) throw new UserError((t) => t.wallpaper.noSuchWallpaper(`\`${parsed.id}\``));
    if (isUpstreamError(error, 'unauthorized')) {
      // Only NSFW wallpapers need a key: say first whether this channel could show one at all.
      const channelDecision = purityAllowed('nsfw', ctx.channel, true, messages);
      if (!channelDecision.allowed) throw new UserError(channelDecision.reason);
      throw new UserError((t) => (hasKey ? t.wallpaper.keyRefused : t.wallpaper.needsKey));
    }
    throw error;
  }
  const decision = purityAllowed(result.purity, ctx.channel, hasKey, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  return renderWallpaperDetail(result, messages);
}

async function randomWallpaper(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const query = valueOf(parseQuery(ctx.options.getString('query')));
  const categories = valueOf(parseCategories(ctx.options.getString('category')));
  const messages = messagesFor(ctx.user.locale);
  let result;
  try {
    result = await waitForWallhaven(app, chatAcknowledger(ctx, false), messages, () =>
      app.wallhaven.randomPick(query, categories, app.memberShares.spenderFor(ctx.user.id, 'wallhaven')),
    );
  } catch (error) {
    if (isUpstreamError(error, 'not_found')) {
      throw new UserError((t) => noResultsSentence({ query: query ?? null, categories, purity: 'sfw', sorting: 'random' }, t));
    }
    throw error;
  }
  const decision = purityAllowed(result.purity, ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  return renderRandomWallpaper(result, query ?? null, messages);
}

function ephemeral(content: string): ComponentResult {
  return { reply: { content, ephemeral: true } };
}

/** ◀ ▶ under a search result: only the member who searched pages; an idle pager switches off. */
async function page(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const messages = messagesFor(ctx.user.locale);
  const labels = messages.wallpaper;
  const state = decodePagerId(ctx.customId);
  if (state === null) return ephemeral(labels.unknownPager);
  if (ctx.message.ownerId === null || ctx.message.ownerId !== ctx.user.id) return ephemeral(labels.notYourPager);
  const { search } = state;
  let query: string | undefined;
  if (search.query.kind === 'text') query = search.query.text;
  else if (search.query.kind === 'stored') {
    query = await app.state.longQueries.recall(search.query.key);
    if (query === undefined) return ephemeral(labels.forgottenQuery);
  }
  // The state came from our own buttons, but the channel may have changed its age restriction since.
  const decision = purityAllowed(search.purity, ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) return ephemeral(decision.reason);

  const now = app.clock.now().getTime();
  const expired = now - state.lastActivityMs > PAGER_IDLE_LIMIT_MS;
  // An expired pager re-renders the result it shows, with its buttons disabled.
  const target = targetOf(state, expired);
  let result;
  try {
    result = await waitForWallhaven(app, componentAcknowledger(ctx), messages, () =>
      locate(app, ctx.user.id, search, query, target.index, state.pageSize, target.direction),
    );
  } catch (error) {
    // Answered on the side, so the wallpaper on show stays and the user can press again.
    if (isPastLastPage(error)) return ephemeral(labels.noMoreResults);
    if (error instanceof UserError || error instanceof MemberShareSpent) return ephemeral(describeFailure(error, messages));
    if (isUpstreamError(error)) {
      ctx.log.info({ err: error }, 'wallpaper page not loaded');
      return ephemeral(describeFailure(error, messages));
    }
    throw error;
  }
  if (result === null) return ephemeral(labels.noMoreResults);
  return {
    update: renderPager({
      search,
      query,
      located: result,
      lastActivityMs: expired ? state.lastActivityMs : activityTime(now),
      channel: ctx.channel,
      nsfwAvailable: app.wallhaven.nsfwAvailable,
      expired,
      messages,
      ...(expired ? { note: labels.pagerExpired } : {}),
    }),
  };
}

const choices = <T extends string>(values: readonly T[]) => values.map((value) => ({ name: value, value }));

export const wallpaper: ChatInputCommand = {
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
        .addStringOption((option) => option.setName('color').setDescription('A main colour, from Wallhaven’s palette of 29').setAutocomplete(true).setMaxLength(40)),
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
        .addStringOption((option) => option.setName('category').setDescription('General, anime, people, or a combination (default: all)').addChoices(...CATEGORY_CHOICES)),
    )
    .toJSON(),
  execute(ctx, app) {
    switch (ctx.options.subcommand) {
      case 'show':
        return showWallpaper(ctx, app);
      case 'random':
        return randomWallpaper(ctx, app);
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
  handleComponent: page,
};
