import type { ChatInputContext } from '../../src/interaction/context.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { deckFromOptions, showDeck } from './shared.js';
import { DEFAULT_POINTS_CAP, MAX_POINTS_CAP } from '../../src/cards/genesys.js';

/**
 * `/deck show` with exactly one of `url:<ydke://…>` or `file:<.ydk>`: the deck read, looked up in the
 * local card database (no request), checked per format (Genesys against `points-cap`) and priced. A deck that cannot be read is
 * refused before anything else runs.
 */
export async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const ephemeral = ctx.options.getBoolean('public') === false;
  // Discord enforces the option's bounds; a cap outside them (a hand-made request) falls back to the default.
  const cap = ctx.options.getInteger('points-cap');
  const pointsCap = cap !== null && Number.isSafeInteger(cap) && cap >= 0 && cap <= MAX_POINTS_CAP ? cap : DEFAULT_POINTS_CAP;
  return showDeck(ctx, app, await deckFromOptions(ctx, app, ephemeral), { ephemeral, pointsCap });
}
