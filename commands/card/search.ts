import { hasFilters } from '../../src/cards/search-filters.js';
import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { filterLabels, renderSearchResults } from '../../src/render/card-menus.js';
import { quoteUserText } from '../../src/render/user-text.js';
import type { AppServices } from '../../src/app/services.js';
import { filtersOf } from './shared.js';

/** `/card search [query] [filters…]`: up to 25 matches, local, with a menu to open any of them. */
export async function search(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const query = (ctx.options.getString('query') ?? '').trim();
  const { messages } = presentationFor(ctx);
  const filters = await filtersOf(ctx, app, true);
  if (query === '' && !hasFilters(filters)) throw new UserError((t) => t.card.giveQueryOrFilter);
  // Names in the user's language match too (the command has no language option: the locale decides).
  const language = cardLanguageFor(null, ctx.settings.publicLocale);
  const result = app.cards.search(query, filters, 25, language);
  if (result.cards.length === 0) {
    throw new UserError((t) => (query === '' ? t.card.noFilterMatch : t.card.noSearchMatch(quoteUserText(query), hasFilters(filters))));
  }
  return renderSearchResults({
    query,
    filters: filterLabels(filters, messages),
    cards: result.cards,
    total: result.total,
    localNames: app.cards.localNames(result.cards, language),
    messages,
  });
}
