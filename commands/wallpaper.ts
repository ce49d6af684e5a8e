import { randomInt } from 'node:crypto';
import { SlashCommandBuilder } from 'discord.js';
import type { ChannelInfo, ChatInputCommand, ChatInputContext, ComponentContext, ComponentResult, OptionValues, Reply } from '../src/command.js';
import { deferWhenSlow } from '../src/defer-when-slow.js';
import { UserError } from '../src/interaction/errors.js';
import type { Catalogue } from '../src/i18n/catalogue.js';
import { en } from '../src/i18n/en.js';
import { messagesFor } from '../src/i18n/messages.js';
import { describeFailure } from '../src/render/errors.js';
import { humanDuration } from '../src/render/format.js';
import {
  noResultsSentence,
  renderRandomWallpaper,
  renderSearchResult,
  renderWallpaperDetail,
  type PagerButtons,
  type SearchSummary,
} from '../src/render/wallpaper.js';
import type { AppServices } from '../src/services/index.js';
import { isUpstreamError } from '../src/interaction/upstream-error.js';
import { MAX_QUERY_LENGTH, parseWallpaperId, type WallpaperSearch } from '../src/services/wallhaven-query.js';
import { isPastLastPage, WALLHAVEN_RATE_LIMIT, type WallhavenCallOptions, type WallpaperPage, type WallpaperSummary } from '../src/services/wallhaven.js';
import { purityAllowed } from '../src/wallpaper/gating.js';
import {
  activityTime,
  decodePagerId,
  DEFAULT_PAGE_SIZE,
  encodePagerId,
  MAX_PAGE_SIZE,
  MAX_RESULT_INDEX,
  longQueryKey,
  PAGER_PREFIX,
  queryRefFor,
  type PagerSearch,
  type QueryRef,
  type PagerState,
} from '../src/wallpaper/pager-state.js';
import {
  CATEGORY_CHOICES,
  parseCategories,
  parsePurity,
  parseQuery,
  parseRatio,
  parseResolution,
  parseSorting,
  RATIO_CHOICES,
  resolutionSuggestions,
  SORTING_CHOICES,
  type ParseResult,
} from '../src/wallpaper/search-options.js';
import { EVERYWHERE } from '../src/install-scopes.js';

/** A pager left alone this long stops paging: its next press disables the buttons. */
export const PAGER_IDLE_LIMIT_MS = 10 * 60_000;
/** A deferred answer that expected to wait at least this long in Wallhaven's queue says so. */
const WAIT_NOTE_FROM_MS = 3_000;

export const PAGER_EXPIRED_NOTE = en.wallpaper.pagerExpired;
export const NOT_YOUR_PAGER = en.wallpaper.notYourPager;
export const UNKNOWN_PAGER = en.wallpaper.unknownPager;
export const FORGOTTEN_QUERY = en.wallpaper.forgottenQuery;
export const NO_MORE_RESULTS = en.wallpaper.noMoreResults;

/** Charges a call that needs a Wallhaven request (a refresh included) to the member's share, refusing it when spent. */
function chargedTo(userId: string, app: AppServices): WallhavenCallOptions {
  return app.memberShares.chargeTo(userId, 'wallhaven');
}

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

/** Seeds are Wallhaven's `[a-zA-Z0-9]{6}`. Sending our own makes page 1 of a random search cacheable too. */
function newSeed(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 6 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

function toServiceSearch(search: PagerSearch, query: string | undefined, page: number): WallpaperSearch {
  return {
    query,
    categories: search.categories,
    purity: { sfw: search.purity === 'sfw', sketchy: search.purity === 'sketchy', nsfw: search.purity === 'nsfw' },
    sorting: search.sorting,
    ...(search.ratio ? { ratios: [search.ratio] } : {}),
    ...(search.atleast ? { atleast: search.atleast } : {}),
    ...(search.seed ? { seed: search.seed } : {}),
    page,
  };
}

function summaryOf(search: PagerSearch, query: string | undefined): SearchSummary {
  return {
    query: query ?? null,
    categories: search.categories,
    purity: search.purity,
    sorting: search.sorting,
    ...(search.ratio ? { ratio: search.ratio } : {}),
    ...(search.atleast ? { atleast: search.atleast } : {}),
  };
}

interface Acknowledger {
  defer(): Promise<void>;
  progress(note: string): Promise<void>;
  /** The words of the wait note. */
  messages: Catalogue;
}

/** Search, show and random answer in the channel: the wait note is public like the answer. */
function publicAcknowledger(ctx: ChatInputContext): Acknowledger {
  return { defer: () => ctx.defer({ ephemeral: false }), progress: (note) => ctx.progress(note, { ephemeral: false }), messages: messagesFor(ctx.user.locale) };
}

/** The note shown while a request waits in the shared Wallhaven queue. */
export function queueNote(expectedWaitMs: number, messages: Catalogue = en): string {
  return messages.wallpaper.queueNote(WALLHAVEN_RATE_LIMIT.requests, humanDuration(expectedWaitMs, messages));
}

/**
 * Runs `work` (which may queue behind Wallhaven's limiter). When the limiter expects a wait of
 * several seconds, the user sees why at once; otherwise the interaction is deferred only if the work
 * turns out slow. Work that settles at once (a cached answer, or a refusal: the user's budget spent,
 * Wallhaven paused) needs no note, and a public note would only flash in the channel before a private refusal.
 */
async function withDeferral<T>(app: AppServices, acknowledge: Acknowledger, work: () => Promise<T>): Promise<T> {
  const expectedWaitMs = app.wallhaven.expectedWaitMs();
  const running = work();
  if (expectedWaitMs >= WAIT_NOTE_FROM_MS) {
    const settledAtOnce = await Promise.race([
      running.then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => setImmediate(() => resolve(false))),
    ]);
    if (!settledAtOnce) await acknowledge.progress(queueNote(expectedWaitMs, acknowledge.messages));
    return running;
  }
  return deferWhenSlow({ defer: () => acknowledge.defer() }, running, { ephemeral: false });
}

/** Wallhaven's `per_page` when it is usable, else the size paging assumed so far. */
function pageSizeOf(page: WallpaperPage, fallback: number): number {
  return Number.isInteger(page.perPage) && page.perPage >= 1 && page.perPage <= MAX_PAGE_SIZE ? page.perPage : fallback;
}

interface LocatedResult {
  index: number;
  item: WallpaperSummary;
  page: WallpaperPage;
  pageSize: number;
  /** Whether a result follows this one. */
  hasNext: boolean;
}

/**
 * The result at absolute `index`, fetching only the page that holds it (pages are cached by the
 * service). Wallhaven sometimes answers a short page before the last one; then paging forward skips
 * to the next page and paging back lands on the short page's last result.
 */
async function locateResult(app: AppServices, call: WallhavenCallOptions, search: PagerSearch, query: string | undefined, index: number, pageSize: number, direction: 'next' | 'prev' | 'stay'): Promise<LocatedResult | null> {
  const pageNumber = Math.floor(index / pageSize) + 1;
  let page = await app.wallhaven.search(toServiceSearch(search, query, pageNumber), call);
  let size = pageSizeOf(page, pageSize);
  let offset = index - (pageNumber - 1) * pageSize;
  if (offset >= page.items.length && direction === 'next' && page.page < page.lastPage) {
    page = await app.wallhaven.search(toServiceSearch(search, query, pageNumber + 1), call);
    size = pageSizeOf(page, pageSize);
    index = pageNumber * pageSize;
    offset = 0;
  }
  if (page.items.length === 0) return null;
  if (offset >= page.items.length) {
    offset = page.items.length - 1;
    index = (pageNumber - 1) * pageSize + offset;
  }
  // Not `index + 1 < total`: after a short page the indices run ahead of the count.
  const hasNext = (offset < page.items.length - 1 || page.page < page.lastPage) && index < MAX_RESULT_INDEX;
  return { index, item: page.items[offset]!, page, pageSize: size, hasNext };
}

interface PagerView {
  search: PagerSearch;
  query: string | undefined;
  located: LocatedResult;
  lastActivityMs: number;
  channel: ChannelInfo;
  app: AppServices;
  expired: boolean;
  note?: string;
  messages: Catalogue;
}

function renderPager(view: PagerView): Reply {
  const { located, search } = view;
  const state: Omit<PagerState, 'action'> = { search, index: located.index, pageSize: located.pageSize, lastActivityMs: view.lastActivityMs };
  const buttons: PagerButtons = {
    previousId: encodePagerId({ ...state, action: 'prev' }),
    nextId: encodePagerId({ ...state, action: 'next' }),
    previousDisabled: view.expired || located.index === 0,
    nextDisabled: view.expired || !located.hasNext,
  };
  // Wallhaven filtered by purity already; this check keeps a wrong answer out of the wrong channel.
  const decision = purityAllowed(located.item.purity, view.channel, view.app.wallhaven.nsfwAvailable, view.messages);
  const reply = renderSearchResult({
    item: decision.allowed ? located.item : { withheld: decision.reason },
    search: summaryOf(search, view.query),
    // Short pages make indices run ahead of the count; the position never claims more than there is.
    position: Math.min(located.index + 1, located.page.total),
    total: located.page.total,
    buttons,
    messages: view.messages,
    ...(view.note ? { note: view.note } : {}),
  });
  // The transport disables the buttons once idle; a press that still arrives later is caught by
  // the activity time in its state.
  return view.expired ? reply : { ...reply, disableComponentsAfterMs: PAGER_IDLE_LIMIT_MS };
}

function readSearchOptions(options: OptionValues): { search: Omit<PagerSearch, 'query'>; query: string | undefined } {
  const query = valueOf(parseQuery(options.getString('query')));
  const search: Omit<PagerSearch, 'query'> = {
    categories: valueOf(parseCategories(options.getString('category'))),
    purity: valueOf(parsePurity(options.getString('purity'))),
    sorting: valueOf(parseSorting(options.getString('sorting'), query !== undefined)),
  };
  const atleast = valueOf(parseResolution(options.getString('resolution')));
  if (atleast) search.atleast = atleast;
  const ratio = valueOf(parseRatio(options.getString('ratio')));
  if (ratio) search.ratio = ratio;
  if (search.sorting === 'random') search.seed = newSeed();
  return { search, query };
}

async function searchWallpapers(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const { search: filters, query } = readSearchOptions(ctx.options);
  const messages = messagesFor(ctx.user.locale);
  const decision = purityAllowed(filters.purity, ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  const lastActivityMs = activityTime(app.clock.now().getTime());
  const search: PagerSearch = {
    ...filters,
    query: await queryRef(app, query, filters),
  };
  const located = await withDeferral(app, publicAcknowledger(ctx), () =>
    locateResult(app, chargedTo(ctx.user.id, app), search, query, 0, DEFAULT_PAGE_SIZE, 'stay'),
  );
  if (located === null || located.page.total === 0) throw new UserError((t) => noResultsSentence(summaryOf(search, query), t));
  // Wallhaven may answer with a seed of its own: later pages must use the one page 1 was sorted by.
  if (search.sorting === 'random' && located.page.seed !== null) search.seed = located.page.seed;
  return renderPager({ search, query, located, lastActivityMs, channel: ctx.channel, app, expired: false, messages });
}

async function showWallpaper(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const parsed = parseWallpaperId(ctx.options.getString('id') ?? '');
  if (!parsed.ok) throw new UserError((t) => t.wallpaper.notAWallpaper(parsed.reason));
  const messages = messagesFor(ctx.user.locale);
  const hasKey = app.wallhaven.nsfwAvailable;
  let result;
  try {
    result = await withDeferral(app, publicAcknowledger(ctx), () => app.wallhaven.detail(parsed.id, chargedTo(ctx.user.id, app)));
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
  let result;
  try {
    result = await withDeferral(app, publicAcknowledger(ctx), () => app.wallhaven.randomPick(query, categories, chargedTo(ctx.user.id, app)));
  } catch (error) {
    if (isUpstreamError(error, 'not_found')) {
      throw new UserError((t) => noResultsSentence({ query: query ?? null, categories, purity: 'sfw', sorting: 'random' }, t));
    }
    throw error;
  }
  const messages = messagesFor(ctx.user.locale);
  const decision = purityAllowed(result.purity, ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  return renderRandomWallpaper(result, query ?? null, messages);
}

function ephemeral(content: string): ComponentResult {
  return { reply: { content, ephemeral: true } };
}

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
  const direction = expired ? 'stay' : state.action;
  const target = direction === 'next' ? state.index + 1 : direction === 'prev' ? Math.max(0, state.index - 1) : state.index;
  let result;
  try {
    result = await withDeferral(app, { defer: () => ctx.deferUpdate(), progress: (note) => ctx.progress(note), messages }, () =>
      locateResult(app, chargedTo(ctx.user.id, app), search, query, target, state.pageSize, direction),
    );
  } catch (error) {
    // Answered on the side, so the wallpaper on show stays and the user can press again.
    if (isPastLastPage(error)) return ephemeral(labels.noMoreResults);
    if (error instanceof UserError) return ephemeral(error.textIn(messages));
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
      app,
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
        .addStringOption((option) => option.setName('sorting').setDescription('Order of results (default: relevance with a query, else newest)').addChoices(...choices(SORTING_CHOICES))),
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
  // Never waits on an upstream: suggestions are a fixed list.
  async autocomplete(ctx) {
    return ctx.focused.name === 'resolution' ? resolutionSuggestions(ctx.focused.value) : [];
  },
  componentPrefix: PAGER_PREFIX,
  handleComponent: page,
};
