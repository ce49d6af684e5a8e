import { hasFilters } from '../../src/cards/search-filters.js';
import { cardLanguageFor } from '../../src/cards/user-language.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { filterLabels, renderSearchResults } from '../../src/render/card-menus.js';
import { checkedSearch, searchFilterLabels } from '../../src/render/card-search.js';
import { quoteUserText } from '../../src/render/user-text.js';
import type { AppServices } from '../../src/app/services.js';
import { filtersOf } from './shared.js';

/**
 * `/card search [query] [filters…]`: up to 25 matches by name or effect text, local, with a menu to
 * open any of them; `query` also takes the filters typed (`atk>=2500 race:dragon "destroy all"`).
 */
export async function search(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const query = (ctx.options.getString('query') ?? '').trim();
  const { messages } = presentationFor(ctx);
  // What was not understood is refused before any wait for the database.
  checkedSearch(ctx.options, {}, messages);
  const base = await filtersOf(ctx, app, true);
  const { terms, filters: more } = checkedSearch(ctx.options, base, messages);
  const filters = { ...base, ...more };
  const searched = terms.words !== '' || terms.phrases.length > 0 || terms.text.length > 0;
  if (!searched && !hasFilters(filters)) throw new UserError((t) => t.card.giveQueryOrFilter);
  // Names and texts in the user's language match too (the command has no language option: the locale decides).
  const language = cardLanguageFor(null, ctx.settings.publicLocale);
  const result = app.cards.search(terms, filters, 25, language);
  if (result.cards.length === 0) {
    throw new UserError((t) => {
      const none = query === '' && terms.text.length === 0 ? t.card.noFilterMatch : t.card.noSearchMatch(quoteUserText(query || (ctx.options.getString('text') ?? '')), hasFilters(filters));
      return `${none}\n${t.cardSearch.syntaxHelp}`;
    });
  }
  return renderSearchResults({
    query,
    filters: [...filterLabels(filters, messages), ...searchFilterLabels(filters, terms.text, messages)],
    cards: result.cards,
    total: result.total,
    localNames: app.cards.localNames(result.cards, language),
    messages,
  });
}
