import type { ChatInputContext } from '../../src/interaction/context.js';
import { chatAcknowledger } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { readSearchOptions } from '../../src/wallpaper/search-options.js';
import { openPager } from './listing.js';

/** `/wallpaper search [query] [filters…]`: a listing of the results, one wallpaper at a time, paged by who asked. */
export async function searchWallpapers(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const options = readSearchOptions(ctx.options, { aiArt: app.config.wallhavenAiFilter });
  if (!options.ok) throw new UserError(options.reason);
  const { search: filters, query } = options.value;
  // Search, show and random answer in the channel: the wait note is public like the answer.
  const opener = { userId: ctx.user.id, channel: ctx.channel, acknowledge: chatAcknowledger(ctx, false), messages: messagesFor(ctx.settings.publicLocale) };
  return openPager(app, opener, filters, query);
}
