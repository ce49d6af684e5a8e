import { parseYdke } from '../../src/decks/ydke.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AppServices } from '../../src/app/services.js';
import { deckFromFile, readDeck, showDeck } from './shared.js';

/**
 * `/deck show` with exactly one of `url:<ydke://…>` or `file:<.ydk>`: the deck read, looked up in the
 * local card database (no request), checked per format and priced. A deck that cannot be read is
 * refused before anything else runs.
 */
export async function show(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const ephemeral = ctx.options.getBoolean('public') === false;
  const url = ctx.options.getString('url');
  const file = ctx.options.getAttachment('file');
  if ((url === null) === (file === null)) throw new UserError((t) => t.deck.oneSource);
  const deck = file === null ? readDeck(parseYdke(url ?? '')) : await deckFromFile(ctx, app, file, ephemeral);
  return showDeck(ctx, app, deck, ephemeral);
}
