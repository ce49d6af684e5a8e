import type { ChatInputContext } from '../../src/interaction/context.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { deckFromOptions, startOdds } from './shared.js';

/**
 * `/deck odds` with exactly one of `url:<ydke://…>` or `file:<.ydk>`: the Main Deck's cards in two
 * menus, to mark starters and cards also needed, for the exact chance of opening them (only the
 * member who asked sees it, and only they can mark). The same as the **Opening odds** button under a shown deck.
 */
export async function odds(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  return startOdds(ctx, app, await deckFromOptions(ctx, app, true));
}
