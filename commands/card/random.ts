import type { ChatInputContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { cardReply, filtersOf } from './shared.js';

/** `/card random [filters…]`: a random card the filters keep, never one of the channel's recent ones. */
export async function random(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const filters = await filtersOf(ctx, app, false);
  const card = await app.cards.random(ctx.channel.id, filters);
  if (card === undefined) throw new UserError((t) => t.card.noFilterMatch);
  // English card text: a random pick is served from the local database without any upstream lookup.
  return deferWhenSlow(ctx, cardReply(app, card, undefined, ctx, presentationFor(ctx)), { ephemeral: false });
}
