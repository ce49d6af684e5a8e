import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor } from '../../src/interaction/presentation.js';
import { renderPrintings } from '../../src/render/card-set.js';
import type { AppServices } from '../../src/app/services.js';

/**
 * The Printings button under a card opens its printings in a reply only the presser sees; that
 * reply's ◀ ▶ turn its pages in place (`page` is null for the button under the card). Local only.
 */
export function showPrintings(ctx: ComponentContext, app: AppServices, cardId: number, page: number | null): ComponentResult {
  const found = app.cards.byId(cardId);
  if (found === undefined) throw new UserError((t) => t.card.cardGone);
  const reply = renderPrintings({ card: found, printings: app.cards.printings(found), page: page ?? 0, messages: presentationFor(ctx).messages });
  return page === null ? { reply } : { update: reply };
}
