import type { APIEmbed } from 'discord.js';
import type { CardArt } from '../cards/card.js';
import type { CardSet } from '../cards/card-set.js';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Attachment, MessagePayload } from '../interaction/reply.js';
import { releaseDate, setImageName } from './card-set.js';
import { EMBED_LIMITS, fitEmbedsToLimit, formatInteger, truncate } from './format.js';
import { fitInert, fitText } from './user-text.js';

/** Sets shown with their image in one post (Discord's 10 embeds); the rest are named in a line. */
export const MAX_SETS_SHOWN = 10;
/** Names listed for the sets past the first ten, before "…". */
const MAX_MORE_NAMES_CHARS = 1_000;
const SET_COLOUR = 0xb8860b;

/** A new set as a post shows it, with its image when it could be had. */
export interface NewSetView {
  set: CardSet;
  image: CardArt | null;
}

/**
 * `/subscribe new-sets`'s post, in the channel's language: a title line, one embed per set (code,
 * TCG release, card count, its image attached) for the first ten, the others named.
 */
export function renderNewSets(sets: readonly NewSetView[], messages: Catalogue): MessagePayload {
  const t = messages.subscribe;
  const shown = sets.slice(0, MAX_SETS_SHOWN);
  const files: Attachment[] = [];
  const embeds = shown.map(({ set, image }): APIEmbed => {
    const embed: APIEmbed = {
      title: fitText(set.name, EMBED_LIMITS.title),
      color: SET_COLOUR,
      fields: [
        { name: t.setCode, value: `\`${truncate(set.code.replace(/`/g, 'ˋ'), 20)}\``, inline: true },
        { name: t.tcgRelease, value: set.tcgDate === undefined ? t.noTcgRelease : releaseDate(set.tcgDate), inline: true },
        ...(set.cardCount === undefined ? [] : [{ name: t.setCards, value: formatInteger(set.cardCount), inline: true }]),
      ],
    };
    if (image !== null && set.imageStem !== undefined) {
      const name = setImageName(set.imageStem, image.format);
      embed.image = { url: `attachment://${name}` };
      files.push({ name, data: image.data, description: truncate(set.name, 1024) });
    }
    return embed;
  });
  const rest = sets.slice(MAX_SETS_SHOWN).map(({ set }) => fitText(set.name, 100));
  const more = rest.length === 0 ? '' : `\n${t.moreSets(rest.length, fitInert(rest.join(', '), MAX_MORE_NAMES_CHARS))}`;
  return { content: `**${t.newSets(sets.length)}**${more}`, embeds: fitEmbedsToLimit(embeds), ...(files.length > 0 ? { files } : {}) };
}
