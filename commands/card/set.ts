import type { ChatInputContext, ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor, turnedPage, updateDeferral } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { noSetMatchMessage, renderSetChoices } from '../../src/render/card-set.js';
import type { AppServices } from '../../src/app/services.js';
import { setReply, waitForDatabase } from './shared.js';

/** `/card set name`: a card set and its cards, ◀ ▶ paged, any of them opened from a menu. */
export async function showSet(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = (ctx.options.getString('name') ?? '').trim();
  if (input === '') throw new UserError((t) => t.card.giveSetName);
  // The set list and its cards are local; they are waited for only on a first start.
  if (!app.cards.setsReady && !(await deferWhenSlow(ctx, app.cards.whenSetsReady(), { ephemeral: false }))) {
    throw new UserError((t) => t.card.setListLoading);
  }
  await waitForDatabase(ctx, app, false);
  const resolution = app.cards.resolveSet(input);
  switch (resolution.kind) {
    case 'none':
      throw new UserError(noSetMatchMessage(input));
    case 'choices':
      return renderSetChoices(input, resolution.candidates, resolution.sharedCode);
    case 'set':
      return deferWhenSlow(ctx, setReply(app, ctx.user.id, resolution.set, 0, presentationFor(ctx)), { ephemeral: false });
  }
}

/** ◀ ▶ under a set: its owner turns the page in place; anyone else gets the page in a reply of their own. */
export async function turnSetPage(ctx: ComponentContext, app: AppServices, key: string, page: number): Promise<ComponentResult> {
  const set = app.cards.setByKey(key);
  if (set === undefined) throw new UserError((t) => t.card.setGone);
  return turnedPage(ctx, await deferWhenSlow(updateDeferral(ctx), setReply(app, ctx.user.id, set, page, presentationFor(ctx)), { ephemeral: false }));
}

/** A pick from a "Which set?" menu: posts the set as `/card set` would. */
export async function openPickedSet(ctx: ComponentContext, app: AppServices): Promise<Reply> {
  const [key] = ctx.values;
  const set = key === undefined ? undefined : app.cards.setByKey(key);
  if (set === undefined) throw new UserError((t) => t.card.setMenuExpired);
  return deferWhenSlow(updateDeferral(ctx), setReply(app, ctx.user.id, set, 0, presentationFor(ctx)), { ephemeral: false });
}
