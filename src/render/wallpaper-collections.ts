import { ButtonStyle, ComponentType, type APIEmbed } from 'discord.js';
import type { ActionRow, Reply } from '../interaction/reply.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { COLLECTIONS_PER_PAGE, type WallpaperCollection } from '../wallpaper/collections.js';
import { collectionListPageId, collectionMenuId } from '../wallpaper/component-ids.js';
import { PAGER_IDLE_LIMIT_MS } from '../wallpaper/paging.js';
import { EMBED_LIMITS, fitEmbedsToLimit, truncate } from './format.js';
import { inertText } from './user-text.js';

const LIST_COLOUR = 0x1b1b1b;
/** Discord's limits on a select menu option. */
const OPTION_TEXT_MAX = 100;

/** The pages a list of `count` collections takes, 25 to a page (a select menu's limit). */
export function collectionPages(count: number): number {
  return Math.max(1, Math.ceil(count / COLLECTIONS_PER_PAGE));
}

/**
 * A user's public collections, 25 to a page: each with its label and count, a menu to open one, and
 * ◀ ▶ between pages when there are more than 25. The labels are the user's text: escaped in the
 * embed, as they are in the menu (whose labels are not markdown).
 */
export function renderCollectionList(username: string, collections: readonly WallpaperCollection[], page: number, messages: Catalogue): Reply {
  const labels = messages.wallpaper;
  const pages = collectionPages(collections.length);
  const shown = collections.slice(page * COLLECTIONS_PER_PAGE, (page + 1) * COLLECTIONS_PER_PAGE);
  const count = (collection: WallpaperCollection) => labels.wallpaperCount(collection.count);
  const embed: APIEmbed = {
    title: truncate(labels.collectionsOf(inertText(username)), EMBED_LIMITS.title),
    url: `https://wallhaven.cc/user/${encodeURIComponent(username)}/favorites`,
    description: truncate(shown.map((collection) => `**${inertText(truncate(collection.label, OPTION_TEXT_MAX))}** · ${count(collection)}`).join('\n'), EMBED_LIMITS.description),
    color: LIST_COLOUR,
    ...(pages > 1 ? { footer: { text: `${page + 1} / ${pages}` } } : {}),
  };
  const rows: ActionRow[] = [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: collectionMenuId(username),
          placeholder: labels.collectionMenu,
          options: shown.map((collection) => ({ label: truncate(collection.label, OPTION_TEXT_MAX) || String(collection.id), value: String(collection.id), description: count(collection) })),
        },
      ],
    },
  ];
  if (pages > 1) {
    rows.push({
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: collectionListPageId(username, page, 'prev'), label: '◀', disabled: page === 0 },
        { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: collectionListPageId(username, page, 'next'), label: '▶', disabled: page >= pages - 1 },
      ],
    });
  }
  return { embeds: fitEmbedsToLimit([embed]), components: rows, disableComponentsAfterMs: PAGER_IDLE_LIMIT_MS };
}
