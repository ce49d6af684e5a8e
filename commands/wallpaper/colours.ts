import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { deferWhenSlow, type Acknowledger } from '../../src/interaction/deferral.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { archetypeQuery, nearestWallhavenColour } from '../../src/wallpaper/card-colours.js';
import { channelPurityScope } from '../../src/wallpaper/gating.js';
import { ALL_CATEGORIES, openPager, sideAnswer } from './listing.js';

/**
 * "Wallpapers in these colours" under `/card art`: the artwork's dominant colour, worked out
 * locally from the stored image, matched to the nearest of Wallhaven's 29 search colours, and
 * listed in a new message of whoever pressed: the card's archetype in that colour when Wallhaven
 * has any, else the colour alone (two requests at most, none before the press).
 */
export async function cardColours(ctx: ComponentContext, app: AppServices, ref: { cardId: number; index: number }): Promise<ComponentResult> {
  const messages = messagesFor(ctx.settings.publicLocale);
  const card = app.cards.byId(ref.cardId);
  if (card === undefined) return privateAnswer(messages.card.cardGone);
  // The artwork is stored already (it was just shown); a slow store or a large image still defers the press.
  const dominant = async () => {
    const image = await app.cards.artwork(card, ref.index, app.memberShares.spenderFor(ctx.user.id, 'ygoprodeck'));
    return image === null ? null : app.artColours.dominant(image.data);
  };
  let rgb;
  try {
    rgb = await deferWhenSlow({ defer: () => ctx.deferUpdate() }, dominant(), { ephemeral: false });
  } catch (error) {
    ctx.log.warn({ err: error, cardId: card.id }, 'artwork colours unreadable');
    return privateAnswer(messages.wallpaperGrid.artUnreadable);
  }
  if (rgb === null) return privateAnswer(messages.wallpaperGrid.artUnreadable);
  const colour = nearestWallhavenColour(rgb);
  const acknowledge: Acknowledger = { defer: () => ctx.deferUpdate(), progress: () => ctx.deferUpdate() };
  const opener = { userId: ctx.user.id, channel: ctx.channel, acknowledge, messages };
  const colourOnly = { categories: ALL_CATEGORIES, purity: channelPurityScope(ctx.channel, app.wallhaven.nsfwAvailable), sorting: 'date_added', colour } as const;
  const archetype = archetypeQuery(card.archetype);
  try {
    const reply =
      archetype === undefined
        ? await openPager(app, opener, colourOnly, undefined)
        : await openPager(app, opener, { ...colourOnly, sorting: 'relevance' }, archetype, undefined, { filters: colourOnly, query: undefined });
    return { reply };
  } catch (error) {
    return sideAnswer(ctx, error, messages);
  }
}
