import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed } from 'discord.js';
import type { Card, CardArt } from '../cards/card.js';
import { artCustomId, MAX_ARTWORK } from '../cards/custom-ids.js';
import type { Catalogue } from '../i18n/catalogue.js';
import { en } from '../i18n/en.js';
import type { Attachment, Reply } from '../interaction/reply.js';
import { cardColoursId } from '../wallpaper/component-ids.js';
import { artAttachment } from './card.js';
import { frameColour } from './card-labels.js';
import { pageWindow, pagerRow } from './card-set.js';
import { EMBED_LIMITS } from './format.js';
import { fitText } from './user-text.js';

/** `/card art`: one artwork of a card at a time, attached (never linked from YGOPRODeck), with ◀ ▶ through the others. */

export interface ArtworkView {
  card: Card;
  /** 0-based index into `card.imageIds`; the nearest that exists is shown. */
  index: number;
  /** That artwork from the local image store; null when it cannot be had right now. */
  image: CardArt | null;
  /** Discord does not let Almanac attach files where this answer goes. */
  artNotAttachable?: boolean;
  messages?: Catalogue;
}

/** Which artwork a request for `index` shows: the nearest that exists, and how many there are. */
export function artworkWindow(card: Card, index: number): { index: number; total: number } {
  const { page, pages } = pageWindow(card.imageIds.length, 1, MAX_ARTWORK, index);
  return { index: page, total: pages };
}

export function renderArtwork(view: ArtworkView): Reply {
  const { card } = view;
  const messages = view.messages ?? en;
  const labels = messages.card;
  const { index, total } = artworkWindow(card, view.index);
  const imageId = card.imageIds[index] ?? card.id;
  const image = view.artNotAttachable === true ? null : view.image;
  const embed: APIEmbed = {
    title: fitText(card.name, EMBED_LIMITS.title),
    color: frameColour(card.frameType),
    footer: { text: labels.artworkFooter(index + 1, total, String(imageId).padStart(8, '0')) },
  };
  if (card.ygoprodeckUrl !== undefined) embed.url = card.ygoprodeckUrl;
  const files: Attachment[] = [];
  if (image !== null) {
    const file = artAttachment(imageId, image, card.name, messages);
    embed.image = { url: `attachment://${file.name}` };
    files.push(file);
  } else if (view.artNotAttachable !== true) {
    embed.description = labels.artUnavailable;
  }
  // The artwork's colours are worked out only once pressed, from the stored image: shown only with it.
  const colours: APIButtonComponent[] =
    image === null ? [] : [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: cardColoursId(card.id, index), label: messages.wallpaperGrid.coloursButton }];
  const buttons = [...(total > 1 ? pagerRow(index, total, (target) => artCustomId(card.id, target)).components : []), ...colours];
  return {
    ...(view.artNotAttachable === true ? { content: messages.install.artNotAttachable } : {}),
    embeds: [embed],
    ...(buttons.length > 0 ? { components: [{ type: ComponentType.ActionRow, components: buttons }] } : {}),
    ...(files.length > 0 ? { files } : {}),
  };
}
