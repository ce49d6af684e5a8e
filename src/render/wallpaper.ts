import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed, type APIEmbedField } from 'discord.js';
import type { ActionRow, Reply } from '../command.js';
import type { CategoryFilter, WallpaperSorting } from '../services/wallhaven-query.js';
import { wallhavenHttpsUrl, type WallpaperDetail, type WallpaperPurity, type WallpaperSummary } from '../services/wallhaven.js';
import { discordTimestamp, EMBED_LIMITS, fitEmbedsToLimit, formatBytes, formatInteger, truncate } from './format.js';
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

const CATEGORY_LABELS: Record<keyof CategoryFilter, string> = { general: 'General', anime: 'Anime', people: 'People' };
const PURITY_LABELS: Record<WallpaperPurity, string> = { sfw: 'SFW', sketchy: 'Sketchy', nsfw: 'NSFW' };
const SORTING_LABELS: Record<WallpaperSorting, string> = {
  relevance: 'relevance',
  date_added: 'newest',
  views: 'most viewed',
  favorites: 'most favourited',
  toplist: 'toplist',
  random: 'random',
};

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

function factFields(summary: WallpaperSummary): APIEmbedField[] {
  const fields: APIEmbedField[] = [
    { name: 'Resolution', value: `${summary.width} × ${summary.height}`, inline: true },
    { name: 'File', value: `${formatBytes(summary.fileSize)} · ${fileTypeLabel(summary.fileType)}`, inline: true },
    { name: 'Category', value: `${CATEGORY_LABELS[summary.category]} · ${PURITY_LABELS[summary.purity]}`, inline: true },
    { name: 'Views', value: formatInteger(summary.views), inline: true },
    { name: 'Favourites', value: formatInteger(summary.favorites), inline: true },
    { name: 'Uploaded', value: discordTimestamp(summary.createdAt, 'D'), inline: true },
  ];
  if (summary.colors.length > 0) fields.push({ name: 'Colours', value: summary.colors.map((colour) => `\`${colour}\``).join(' '), inline: true });
  const source = summary.source === undefined ? undefined : sourceLink(summary.source);
  if (source !== undefined) fields.push({ name: 'Source', value: source, inline: true });
  return fields;
}

function baseEmbed(summary: WallpaperSummary, image: string | undefined): APIEmbed {
  const embed: APIEmbed = { title: `Wallpaper ${summary.id}`, color: colourOf(summary), fields: factFields(summary) };
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
function largeImage(summary: WallpaperSummary): string | undefined {
  return linkableWallhavenUrl(summary.thumbnails.large) ?? linkableWallhavenUrl(summary.thumbnails.original) ?? linkableWallhavenUrl(summary.imageUrl);
}

export interface PagerButtons {
  previousId: string;
  nextId: string;
  previousDisabled: boolean;
  nextDisabled: boolean;
}

/** What was searched for, as the embed's first line. */
export interface SearchSummary {
  query: string | null;
  categories: CategoryFilter;
  purity: WallpaperPurity;
  sorting: WallpaperSorting;
  ratio?: string;
  atleast?: { width: number; height: number };
}

export function describeSearch(search: SearchSummary): string {
  const parts: string[] = [];
  parts.push(search.query === null ? 'All wallpapers' : quoteUserText(search.query, 200));
  const categories = (Object.keys(CATEGORY_LABELS) as (keyof CategoryFilter)[]).filter((category) => search.categories[category]);
  if (categories.length < 3) parts.push(categories.map((category) => CATEGORY_LABELS[category]).join(' + '));
  if (search.purity !== 'sfw') parts.push(PURITY_LABELS[search.purity]);
  if (search.atleast) parts.push(`at least ${search.atleast.width}×${search.atleast.height}`);
  if (search.ratio) parts.push(`ratio ${search.ratio}`);
  parts.push(`sorted by ${SORTING_LABELS[search.sorting]}`);
  return parts.join(' · ');
}

function pagerRow(buttons: PagerButtons, pageUrl: string | undefined): ActionRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: buttons.previousId, label: '◀', disabled: buttons.previousDisabled },
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: buttons.nextId, label: '▶', disabled: buttons.nextDisabled },
      ...linkButton('Open on Wallhaven', pageUrl),
    ],
  };
}

export interface SearchResultView {
  /** The result on show, or the sentence explaining why it is withheld in this channel. */
  item: WallpaperSummary | { withheld: string };
  search: SearchSummary;
  /** 1-based position of the result among `total`. */
  position: number;
  total: number;
  buttons: PagerButtons;
  /** A line above the embed (an expired pager, a wait in the queue). */
  note?: string;
}

/** One search result with ◀ ▶ paging and the footer `n / total`. */
export function renderSearchResult(view: SearchResultView): Reply {
  const footer = { text: `${formatInteger(view.position)} / ${formatInteger(view.total)}` };
  const description = truncate(describeSearch(view.search), EMBED_LIMITS.description);
  let embed: APIEmbed;
  let pageUrl: string | undefined;
  if ('withheld' in view.item) {
    embed = { title: 'Result not shown here', description: `${description}\n\n${view.item.withheld}`, color: WITHHELD_COLOUR, footer };
  } else {
    embed = { ...baseEmbed(view.item, largeImage(view.item)), description, footer };
    pageUrl = view.item.pageUrl;
  }
  return {
    ...(view.note ? { content: truncate(view.note, EMBED_LIMITS.content) } : {}),
    embeds: fitEmbedsToLimit([embed]),
    components: [pagerRow(view.buttons, pageUrl)],
  };
}

/** Tag names joined until the field is full, then how many more there are. */
function tagList(detail: WallpaperDetail): string | undefined {
  if (detail.tags.length === 0) return undefined;
  const names = detail.tags.map((tag) => inertText(tag.name));
  let value = '';
  for (let index = 0; index < names.length; index++) {
    const next = value === '' ? names[index]! : `${value} · ${names[index]!}`;
    const rest = names.length - index - 1;
    const suffix = rest > 0 ? ` · +${rest} more` : '';
    if (next.length + suffix.length > EMBED_LIMITS.fieldValue) {
      const remaining = names.length - index;
      return value === '' ? `+${remaining} tags` : `${value} · +${remaining} more`;
    }
    value = next;
  }
  return value;
}

/** The detail of one wallpaper: uploader, tags, the full image, and the facts of the search view. */
export function renderWallpaperDetail(detail: WallpaperDetail): Reply {
  const full = linkableWallhavenUrl(detail.imageUrl) ?? largeImage(detail);
  const embed = baseEmbed(detail, full);
  if (detail.uploader) {
    const avatar = linkableWallhavenUrl(detail.uploader.avatarUrl);
    embed.author = {
      // Author names are not markdown: shown as is, only shortened.
      name: truncate(`Uploaded by ${detail.uploader.username}`, EMBED_LIMITS.author),
      url: `https://wallhaven.cc/user/${encodeURIComponent(detail.uploader.username)}`,
      ...(avatar ? { icon_url: avatar } : {}),
    };
  }
  const tags = tagList(detail);
  if (tags !== undefined) embed.fields = [...(embed.fields ?? []), { name: 'Tags', value: tags, inline: false }];
  embed.footer = { text: detail.shortUrl.replace(/^https?:\/\//, '') };
  const buttons = [...linkButton('Open on Wallhaven', detail.pageUrl), ...linkButton('Full image', detail.imageUrl)];
  return {
    embeds: fitEmbedsToLimit([embed]),
    ...(buttons.length > 0 ? { components: [{ type: ComponentType.ActionRow, components: buttons }] } : {}),
  };
}

/** One random wallpaper, large, with a link to its page. */
export function renderRandomWallpaper(summary: WallpaperSummary, query: string | null): Reply {
  const embed = baseEmbed(summary, largeImage(summary));
  embed.description = query === null ? 'A random wallpaper' : `A random wallpaper for ${quoteUserText(query, 200)}`;
  const buttons = linkButton('Open on Wallhaven', summary.pageUrl);
  return {
    embeds: fitEmbedsToLimit([embed]),
    ...(buttons.length > 0 ? { components: [{ type: ComponentType.ActionRow, components: buttons }] } : {}),
  };
}

/** The sentence for a search with no results, suggesting how to broaden it. */
export function noResultsSentence(search: SearchSummary): string {
  const hints: string[] = [];
  if (search.query !== null) hints.push('fewer or more general words');
  if (Object.values(search.categories).some((selected) => !selected)) hints.push('all categories');
  if (search.atleast) hints.push('a smaller minimum resolution');
  if (search.ratio) hints.push('no ratio');
  const suggestion = hints.length > 0 ? ` Try ${hints.join(', ')}.` : ' Try a broader search.';
  const what = search.query === null ? 'these filters' : `${quoteUserText(search.query, 100)} with these filters`;
  return `No wallpapers match ${what}.${suggestion}`;
}
