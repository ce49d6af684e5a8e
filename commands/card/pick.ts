import type { CardComponentAction } from '../../src/cards/custom-ids.js';
import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { ComponentContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor, updateDeferral } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { artworkReply, cardReply, pricesReply } from './shared.js';

/**
 * A pick from a "Did you mean", search or set menu: posts the card as `/card show` would (or its
 * prices or artworks, for a menu of those), in the language the menu was made in.
 */
export async function openPicked(ctx: ComponentContext, app: AppServices, action: CardComponentAction | null): Promise<Reply> {
  const [value] = ctx.values;
  if (action?.action !== 'open' || value === undefined || !/^\d{1,12}$/.test(value)) throw new UserError((t) => t.card.menuExpired);
  const card = app.cards.byId(Number(value));
  if (card === undefined) throw new UserError((t) => t.card.cardGone);
  if (action.view === 'price') return pricesReply(app, card, 0, presentationFor(ctx));
  if (action.view === 'art') return deferWhenSlow(updateDeferral(ctx), artworkReply(app, ctx.user.id, card, 0, presentationFor(ctx)), { ephemeral: false });
  const language = action.language ?? cardLanguageFor(null, ctx.settings.publicLocale);
  return deferWhenSlow(updateDeferral(ctx), cardReply(app, card, language, ctx, presentationFor(ctx, action.language ?? null)), { ephemeral: false });
}
