import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed, type APIEmbedField } from 'discord.js';
import type { ChannelInfo } from '../interaction/context.js';
import type { ActionRow, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { CategoryFilter, PurityScope, SearchSummary, WallpaperSorting } from '../wallpaper/search.js';
import type { WallpaperCollection } from '../wallpaper/collections.js';
import { moreLikeId, tagMenuId, uploadsById } from '../wallpaper/component-ids.js';
import { tagListingText } from '../wallpaper/listings.js';
import { purityAllowed } from '../wallpaper/gating.js';
import { encodePagerId, type PagerSearch, type PagerState } from '../wallpaper/pager-state.js';
import { PAGER_IDLE_LIMIT_MS, summaryOf, type LocatedResult } from '../wallpaper/paging.js';
import { similarQueryTarget, WALLHAVEN_RATE_LIMIT, wallhavenHttpsUrl } from '../wallpaper/wallhaven-site.js';
import type { WallpaperDetail, WallpaperPurity, WallpaperSummary } from '../wallpaper/wallpaper.js';
import { BUTTON_LABEL_MAX, discordTimestamp, EMBED_LIMITS, fitEmbedsToLimit, formatBytes, formatInteger, humanDuration, truncate } from './format.js';
import { inertText, quoteUserText } from './user-text.js';

/**
 * Pure renderers for `/wallpaper`: a wallpaper as one embed (image, facts, source) plus link and
 * pager buttons. Upstream text is escaped, and only https URLs on Wallhaven's own hosts become an
 * embed URL, an image or a link button; the uploader's source link is the one outside link, shown
 * as a masked link in a field.
 */

const DEFAULT_COLOUR = 0x1b1b1b;
const WITHHELD_COLOUR = 0x99aab5;
/** Discord refuses link buttons with longer URLs. */
const MAX_LINK_URL = 512;

/**
 * The URL when it is https on a Wallhaven host and short enough to link, else undefined. The service
 * already vetted it; checking again here keeps the renderer safe whatever it is given.
 */
export function linkableWallhavenUrl(value: string | undefined): string | undefined {
  const url = wallhavenHttpsUrl(value);
  return url !== undefined && url.length <= MAX_LINK_URL ? url : undefined;
}

type Labels = Catalogue['wallpaper'];

const CATEGORIES: readonly (keyof CategoryFilter)[] = ['general', 'anime', 'people'];
/** Wallhaven's own purity names, the same in every language. */
const PURITY_LABELS: Record<WallpaperPurity, string> = { sfw: 'SFW', sketchy: 'Sketchy', nsfw: 'NSFW' };
const SORTINGS: Readonly<Record<WallpaperSorting, keyof Labels['sortings']>> = {
  relevance: 'relevance',
  date_added: 'date_added',
  views: 'views',
  favorites: 'favorites',
  toplist: 'toplist',
  random: 'random',
};

/** `SFW`, or the levels of a scope joined: `SFW + Sketchy`. */
function purityScopeLabel(scope: PurityScope): string {
  return scope
    .split('+')
    .map((level) => PURITY_LABELS[level as WallpaperPurity])
    .join(' + ');
}

function fileTypeLabel(mime: string): string {
  const subtype = mime.replace(/^image\//, '');
  return (subtype === 'jpeg' ? 'jpg' : subtype).toUpperCase();
}

function colourOf(summary: WallpaperSummary): number {
  const first = summary.colors[0];
  return first !== undefined && /^#[0-9a-f]{6}$/.test(first) ? parseInt(first.slice(1), 16) : DEFAULT_COLOUR;
}

/**
 * `[host](url)` for the uploader's source. The URL is already an http(s) URL; parentheses are
 * percent-encoded so they cannot end the masked link early. Very long URLs are shown as the host only.
 */
function sourceLink(source: string): string | undefined {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = inertText(url.hostname.replace(/^www\./, ''));
  const href = url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
  return href.length > MAX_LINK_URL ? host : `[${host}](${href})`;
}

function factFields(summary: WallpaperSummary, messages: Catalogue): APIEmbedField[] {
  const labels = messages.wallpaper;
  const fields: APIEmbedField[] = [
    { name: labels.resolution, value: `${summary.width} × ${summary.height}`, inline: true },
    { name: labels.file, value: `${formatBytes(summary.fileSize)} · ${fileTypeLabel(summary.fileType)}`, inline: true },
    { name: labels.category, value: `${labels.categories[summary.category]} · ${PURITY_LABELS[summary.purity]}`, inline: true },
    { name: labels.views, value: formatInteger(summary.views, messages.intlLocale), inline: true },
    { name: labels.favourites, value: formatInteger(summary.favorites, messages.intlLocale), inline: true },
    { name: labels.uploaded, value: discordTimestamp(summary.createdAt, 'D'), inline: true },
  ];
  if (summary.colors.length > 0) fields.push({ name: labels.colours, value: summary.colors.map((colour) => `\`${colour}\``).join(' '), inline: true });
  const source = summary.source === undefined ? undefined : sourceLink(summary.source);
  if (source !== undefined) fields.push({ name: labels.source, value: source, inline: true });
  return fields;
}

function baseEmbed(summary: WallpaperSummary, image: string | undefined, messages: Catalogue): APIEmbed {
  const embed: APIEmbed = { title: messages.wallpaper.title(summary.id), color: colourOf(summary), fields: factFields(summary, messages) };
  const page = linkableWallhavenUrl(summary.pageUrl);
  if (page !== undefined) embed.url = page;
  if (image !== undefined) embed.image = { url: image };
  return embed;
}

function linkButton(label: string, url: string | undefined): APIButtonComponent[] {
  const safe = linkableWallhavenUrl(url);
  return safe === undefined ? [] : [{ type: ComponentType.Button, style: ButtonStyle.Link, label, url: safe }];
}

/** Thumbnails are served for embedding; the large one is the best size for a chat. */
export function largeImage(summary: WallpaperSummary): string | undefined {
  return linkableWallhavenUrl(summary.thumbnails.large) ?? linkableWallhavenUrl(summary.thumbnails.original) ?? linkableWallhavenUrl(summary.imageUrl);
}

interface PagerButtons {
  previousId: string;
  nextId: string;
  /** The Grid button's: the same listing, ten at a time, in a message of whoever presses. */
  gridId?: string;
  previousDisabled: boolean;
  nextDisabled: boolean;
}

export function describeSearch(search: SearchSummary, messages: Catalogue = en): string {
  const labels = messages.wallpaper;
  const parts: string[] = [];
  const similarTo = similarQueryTarget(search.query);
  if (search.collection) {
    // A collection takes no other filter than purity, and no sorting of ours.
    const { label, username, skipped } = search.collection;
    parts.push(labels.collectionListing(quoteUserText(label, 100), inertText(username)));
    if (search.purity !== 'sfw') parts.push(purityScopeLabel(search.purity));
    if (skipped > 0) parts.push(labels.skippedHere(skipped));
    return parts.join(' · ');
  }
  if (search.tag) {
    parts.push(labels.tagListing(quoteUserText(search.tag.name, 100)));
    if (search.tag.category) parts.push(inertText(search.tag.category));
  } else {
    parts.push(similarTo !== undefined ? labels.similarTo(similarTo) : search.query === null ? labels.allWallpapers : quoteUserText(search.query, 200));
  }
  const categories = CATEGORIES.filter((category) => search.categories[category]);
  if (categories.length < 3) parts.push(categories.map((category) => labels.categories[category]).join(' + '));
  if (search.purity !== 'sfw') parts.push(purityScopeLabel(search.purity));
  if (search.atleast) parts.push(labels.atLeast(`${search.atleast.width}×${search.atleast.height}`));
  if (search.ratio) parts.push(labels.ratio(search.ratio));
  if (search.colour) parts.push(labels.colour(labels.colourNames[search.colour]));
  parts.push(labels.sortedBy(search.topRange ? labels.toplistOf(labels.topRanges[search.topRange]) : labels.sortings[SORTINGS[search.sorting]]));
  return parts.join(' · ');
}

/** The "More like this" button under a wallpaper: whoever presses it gets a listing of their own. */
function moreLikeButton(summary: WallpaperSummary, labels: Labels): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: moreLikeId(summary.id), label: labels.moreLikeThis };
}

function pagerRow(buttons: PagerButtons, shown: WallpaperSummary | undefined, labels: Labels, gridLabel: string): ActionRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: buttons.previousId, label: '◀', disabled: buttons.previousDisabled },
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: buttons.nextId, label: '▶', disabled: buttons.nextDisabled },
      ...(shown ? [moreLikeButton(shown, labels)] : []),
      ...(buttons.gridId ? [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: buttons.gridId, label: gridLabel } as const] : []),
      ...linkButton(labels.openOnWallhaven, shown?.pageUrl),
    ],
  };
}

interface SearchResultView {
  /** The result on show, or the sentence explaining why it is withheld in this channel. */
  item: WallpaperSummary | { withheld: string };
  search: SearchSummary;
  /** 1-based position of the result among `total`. */
  position: number;
  total: number;
  buttons: PagerButtons;
  /** A line above the embed (an expired pager, a wait in the queue). */
  note?: string;
  messages?: Catalogue;
}

/** One search result with ◀ ▶ paging and the footer `n / total`. */
export function renderSearchResult(view: SearchResultView): Reply {
  const messages = view.messages ?? en;
  const footer = { text: `${formatInteger(view.position)} / ${formatInteger(view.total)}` };
  const description = truncate(describeSearch(view.search, messages), EMBED_LIMITS.description);
  let embed: APIEmbed;
  let shown: WallpaperSummary | undefined;
  if ('withheld' in view.item) {
    embed = { title: messages.wallpaper.resultNotShown, description: `${description}\n\n${view.item.withheld}`, color: WITHHELD_COLOUR, footer };
  } else {
    embed = { ...baseEmbed(view.item, largeImage(view.item), messages), description, footer };
    shown = view.item;
  }
  return {
    ...(view.note ? { content: truncate(view.note, EMBED_LIMITS.content) } : {}),
    embeds: fitEmbedsToLimit([embed]),
    components: [pagerRow(view.buttons, shown, messages.wallpaper, messages.wallpaperGrid.gridButton)],
  };
}

/** Tag names joined until the field is full, then how many more there are. */
function tagList(detail: WallpaperDetail, labels: Labels): string | undefined {
  if (detail.tags.length === 0) return undefined;
  const names = detail.tags.map((tag) => inertText(tag.name));
  let value = '';
  for (let index = 0; index < names.length; index++) {
    const next = value === '' ? names[index]! : `${value} · ${names[index]!}`;
    const rest = names.length - index - 1;
    const suffix = rest > 0 ? ` · ${labels.moreTags(rest)}` : '';
    if (next.length + suffix.length > EMBED_LIMITS.fieldValue) {
      const remaining = names.length - index;
      return value === '' ? labels.tagCount(remaining) : `${value} · ${labels.moreTags(remaining)}`;
    }
    value = next;
  }
  return value;
}

/** Discord's limits on a select menu. */
const MENU_LIMITS = { options: 25, label: 100, value: 100, description: 100 } as const;

/**
 * A menu of the wallpaper's tags, the first 25 in Wallhaven's order: picking one lists that exact
 * tag. Each value carries the tag's id and category (its title names both); a category too long
 * for the value is left out rather than cut.
 */
function tagMenu(detail: WallpaperDetail, labels: Labels): ActionRow {
  const options = detail.tags.slice(0, MENU_LIMITS.options).map((tag) => {
    const withCategory = tagListingText({ id: tag.id, ...(tag.category ? { category: tag.category } : {}) });
    return {
      label: truncate(tag.name, MENU_LIMITS.label),
      value: withCategory.length <= MENU_LIMITS.value ? withCategory : tagListingText({ id: tag.id }),
      ...(tag.category ? { description: truncate(tag.category, MENU_LIMITS.description) } : {}),
    };
  });
  return {
    type: ComponentType.ActionRow,
    components: [{ type: ComponentType.StringSelect, custom_id: tagMenuId(detail.id), placeholder: labels.tagMenu, options }],
  };
}

/** "Uploads by …": the uploader's wallpapers as a listing of the presser's own (none for a gone account or an unusual name). */
function uploadsButton(detail: WallpaperDetail, labels: Labels): APIButtonComponent[] {
  const customId = detail.uploader ? uploadsById(detail.uploader.username) : null;
  if (customId === null || !detail.uploader) return [];
  return [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId, label: truncate(labels.uploadsBy(detail.uploader.username), BUTTON_LABEL_MAX) }];
}

/** The detail of one wallpaper: uploader, tags, the full image, and the facts of the search view. */
export function renderWallpaperDetail(detail: WallpaperDetail, messages: Catalogue = en): Reply {
  const labels = messages.wallpaper;
  const full = linkableWallhavenUrl(detail.imageUrl) ?? largeImage(detail);
  const embed = baseEmbed(detail, full, messages);
  if (detail.uploader) {
    const avatar = linkableWallhavenUrl(detail.uploader.avatarUrl);
    embed.author = {
      // Author names are not markdown: shown as is, only shortened.
      name: truncate(labels.uploadedBy(detail.uploader.username), EMBED_LIMITS.author),
      url: `https://wallhaven.cc/user/${encodeURIComponent(detail.uploader.username)}`,
      ...(avatar ? { icon_url: avatar } : {}),
    };
  }
  const tags = tagList(detail, labels);
  if (tags !== undefined) embed.fields = [...(embed.fields ?? []), { name: labels.tags, value: tags, inline: false }];
  embed.footer = { text: detail.shortUrl.replace(/^https?:\/\//, '') };
  const buttons = [moreLikeButton(detail, labels), ...uploadsButton(detail, labels), ...linkButton(labels.openOnWallhaven, detail.pageUrl), ...linkButton(labels.fullImage, detail.imageUrl)];
  const rows: ActionRow[] = [{ type: ComponentType.ActionRow, components: buttons }];
  if (detail.tags.length > 0) rows.push(tagMenu(detail, labels));
  return { embeds: fitEmbedsToLimit([embed]), components: rows };
}

/** One random wallpaper, large, with a link to its page. */
export function renderRandomWallpaper(summary: WallpaperSummary, query: string | null, messages: Catalogue = en): Reply {
  const labels = messages.wallpaper;
  const embed = baseEmbed(summary, largeImage(summary), messages);
  embed.description = query === null ? labels.random : labels.randomFor(quoteUserText(query, 200));
  const buttons = [moreLikeButton(summary, labels), ...linkButton(labels.openOnWallhaven, summary.pageUrl)];
  return { embeds: fitEmbedsToLimit([embed]), components: [{ type: ComponentType.ActionRow, components: buttons }] };
}

/** The sentence for a search with no results, suggesting how to broaden it. */
export function noResultsSentence(search: SearchSummary, messages: Catalogue = en): string {
  const labels = messages.wallpaper;
  if (search.collection && search.collection.skipped > 0) return labels.collectionNothingHere(search.collection.skipped);
  // An unknown uploader and one without uploads here look alike to Wallhaven: an empty listing.
  const uploader = search.query === null || search.tag ? null : /^@(\S+)$/.exec(search.query);
  if (uploader) return labels.noUploads(quoteUserText(uploader[1]!, 64));
  const hints: string[] = [];
  if (search.query !== null) hints.push(labels.hintWords);
  if (Object.values(search.categories).some((selected) => !selected)) hints.push(labels.hintCategories);
  if (search.atleast) hints.push(labels.hintResolution);
  if (search.ratio) hints.push(labels.hintRatio);
  const suggestion = hints.length > 0 ? labels.tryHints(hints.join(', ')) : labels.tryBroader;
  const what = search.query === null ? labels.noResultsForFilters : labels.noResults(quoteUserText(search.query, 100));
  return `${what} ${suggestion}`;
}

/** The note shown while a request waits in the shared Wallhaven queue. */
export function queueNote(expectedWaitMs: number, messages: Catalogue = en): string {
  return messages.wallpaper.queueNote(WALLHAVEN_RATE_LIMIT.requests, humanDuration(expectedWaitMs, messages));
}

interface PagerView {
  search: PagerSearch;
  query: string | undefined;
  located: LocatedResult;
  lastActivityMs: number;
  channel: Pick<ChannelInfo, 'kind' | 'ageRestricted'>;
  /** Whether NSFW wallpapers can be shown at all (a Wallhaven key is configured). */
  nsfwAvailable: boolean;
  expired: boolean;
  note?: string;
  messages: Catalogue;
  /** The collection a collection's listing pages through, for its title. */
  collection?: Pick<WallpaperCollection, 'label' | 'count'>;
}

/** A `/wallpaper search` pager: the located result, its ◀ ▶ buttons carrying the pager's state. */
export function renderPager(view: PagerView): Reply {
  const { located, search } = view;
  const state: Omit<PagerState, 'action'> = { search, index: located.index, pageSize: located.pageSize, lastActivityMs: view.lastActivityMs };
  const buttons: PagerButtons = {
    previousId: encodePagerId({ ...state, action: 'prev' }),
    nextId: encodePagerId({ ...state, action: 'next' }),
    gridId: encodePagerId({ ...state, action: 'grid' }),
    previousDisabled: view.expired || located.index === 0,
    nextDisabled: view.expired || !located.hasNext,
  };
  // Wallhaven filtered by purity already; this check keeps a wrong answer out of the wrong channel.
  const decision = purityAllowed(located.item.purity, view.channel, view.nsfwAvailable, view.messages);
  const reply = renderSearchResult({
    item: decision.allowed ? located.item : { withheld: decision.reason },
    search: summaryOf(search, view.query, located.page, view.collection),
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
