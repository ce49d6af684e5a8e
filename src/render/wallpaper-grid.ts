import { ButtonStyle, ComponentType, type APIMediaGalleryItem, type APIMessageTopLevelComponent, type APISelectMenuOption } from 'discord.js';
import type { ChannelInfo } from '../interaction/context.js';
import type { Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { WallpaperCollection } from '../wallpaper/collections.js';
import { purityAllowed } from '../wallpaper/gating.js';
import { encodePagerId, type PagerSearch, type PagerState } from '../wallpaper/pager-state.js';
import { GRID_SIZE, PAGER_IDLE_LIMIT_MS, summaryOf, type LocatedBlock } from '../wallpaper/paging.js';
import type { WallpaperSummary } from '../wallpaper/wallpaper.js';
import { formatInteger, truncate } from './format.js';
import { inertText } from './user-text.js';
import { describeSearch, largeImage, linkableWallhavenUrl } from './wallpaper.js';

/**
 * A listing's grid: ten results as one Components V2 message (Discord's media gallery holds at most
 * ten), numbered, with ◀ ▶ by ten and a menu opening one in the usual single view. Nothing here is
 * an embed: the flag forbids them, so every word is a text display inside one container.
 */

/** Discord's limit on a text display's content, shared with a message's. */
const TEXT_MAX = 4000;
const OPTION_MAX = 100;

interface GridView {
  search: PagerSearch;
  query: string | undefined;
  located: LocatedBlock;
  lastActivityMs: number;
  channel: Pick<ChannelInfo, 'kind' | 'ageRestricted' | 'purityCeiling'>;
  nsfwAvailable: boolean;
  expired: boolean;
  note?: string;
  messages: Catalogue;
  collection?: Pick<WallpaperCollection, 'label' | 'count'>;
}

interface Shown {
  number: number;
  index: number;
  item: WallpaperSummary;
  image: string;
}

function numberedLine(shown: readonly Shown[]): string {
  return shown
    .map(({ number, item }) => {
      const page = linkableWallhavenUrl(item.pageUrl);
      const id = inertText(item.id);
      return page === undefined ? `**${number}** ${id}` : `**${number}** [${id}](${page})`;
    })
    .join(' · ');
}

function pickOption(shown: Shown, messages: Catalogue): APISelectMenuOption {
  const { item } = shown;
  return {
    label: truncate(`${shown.number}. ${item.id}`, OPTION_MAX),
    value: String(shown.index),
    description: truncate(`${item.width} × ${item.height} · ${messages.wallpaper.categories[item.category]}`, OPTION_MAX),
  };
}

/** The grid of `view.located`: the state of its listing travels in its buttons and menu as a pager's does. */
export function renderGrid(view: GridView): Reply {
  const { located, messages } = view;
  const labels = messages.wallpaperGrid;
  // Wallhaven filtered by purity already; this check keeps a wrong answer out of the wrong channel.
  const shown: Shown[] = [];
  for (const [at, { index, item }] of located.items.entries()) {
    const image = largeImage(item);
    if (image !== undefined && purityAllowed(item.purity, view.channel, view.nsfwAvailable).allowed) shown.push({ number: located.start + at + 1, index, item, image });
  }
  const withheld = located.items.length - shown.length;
  const total = located.page.total;
  const last = Math.min(located.start + located.items.length, total);
  const heading = [
    ...(view.note ? [view.note] : []),
    describeSearch(summaryOf(view.search, view.query, located.page, view.collection), messages),
    labels.range(formatInteger(Math.min(located.start + 1, total), messages.intlLocale), formatInteger(last, messages.intlLocale), formatInteger(total, messages.intlLocale)),
    ...(withheld > 0 ? [labels.withheld(withheld)] : []),
  ].join('\n');
  const state: Omit<PagerState, 'action'> = { search: view.search, index: located.start, pageSize: located.pageSize, lastActivityMs: view.lastActivityMs };
  const gallery: APIMediaGalleryItem[] = shown.map(({ number, item, image }) => ({ media: { url: image }, description: `${number}. ${item.id}` }));
  const inside: Exclude<APIMessageTopLevelComponent, { type: ComponentType.Container }>[] = [{ type: ComponentType.TextDisplay, content: truncate(heading, TEXT_MAX) }];
  if (shown.length > 0) {
    inside.push(
      { type: ComponentType.MediaGallery, items: gallery.slice(0, GRID_SIZE) },
      { type: ComponentType.TextDisplay, content: truncate(numberedLine(shown), TEXT_MAX) },
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.StringSelect, custom_id: encodePagerId({ ...state, action: 'pick' }), placeholder: labels.pickMenu, options: shown.map((entry) => pickOption(entry, messages)) },
        ],
      },
    );
  }
  inside.push({
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: encodePagerId({ ...state, action: 'grid-prev' }), label: '◀', disabled: view.expired || located.start === 0 },
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: encodePagerId({ ...state, action: 'grid-next' }), label: '▶', disabled: view.expired || !located.hasNext },
    ],
  });
  const reply: Reply = { layout: [{ type: ComponentType.Container, components: inside }] };
  return view.expired ? reply : { ...reply, disableComponentsAfterMs: PAGER_IDLE_LIMIT_MS };
}
