import type { ChatInputContext } from '../../src/interaction/context.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { deckFromOptions, showDeck } from './shared.js';

/**
 * `/deck show` with exactly one of `url:<ydke://…>` or `file:<.ydk>`: the deck read, looked up in the
 * local card database (no request), checked per format and priced. A deck that cannot be read is
 * refused before anything else runs.
 */
export async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const ephemeral = ctx.options.getBoolean('public') === false;
  return showDeck(ctx, app, await deckFromOptions(ctx, app, ephemeral), ephemeral);
}
