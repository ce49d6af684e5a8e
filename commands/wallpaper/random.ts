import type { ChatInputContext } from '../../src/interaction/context.js';
import { chatAcknowledger } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { isUpstreamError } from '../../src/interaction/upstream-error.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { noResultsSentence, renderRandomWallpaper } from '../../src/render/wallpaper.js';
import type { AppServices } from '../../src/app/services.js';
import { purityAllowed } from '../../src/wallpaper/gating.js';
import { parseAiArt, parseCategories, parseQuery, type ParseResult } from '../../src/wallpaper/search-options.js';
import { waitForWallhaven } from './listing.js';

function valueOf<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new UserError(result.reason);
  return result.value;
}

/** `/wallpaper random [query] [category]`: a random SFW wallpaper. */
export async function randomWallpaper(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const query = valueOf(parseQuery(ctx.options.getString('query')));
  const categories = valueOf(parseCategories(ctx.options.getString('category')));
  const aiArt = valueOf(parseAiArt(ctx.options.getString('ai-art'), app.config.wallhavenAiFilter));
  const messages = messagesFor(ctx.settings.publicLocale);
  let result;
  try {
    result = await waitForWallhaven(app, chatAcknowledger(ctx, false), messages, () =>
      app.wallhaven.randomPick(query, categories, app.memberShares.spenderFor(ctx.user.id, 'wallhaven'), aiArt),
    );
  } catch (error) {
    if (isUpstreamError(error, 'not_found')) {
      throw new UserError((t) => noResultsSentence({ query: query ?? null, categories, purity: 'sfw', sorting: 'random' }, t));
    }
    throw error;
  }
  const decision = purityAllowed(result.purity, ctx.channel, app.wallhaven.nsfwAvailable, messages);
  if (!decision.allowed) throw new UserError(decision.reason);
  return renderRandomWallpaper(result, query ?? null, messages);
}
