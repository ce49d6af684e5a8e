import type { Card, CardLanguage } from '../../src/cards/card.js';
import type { CardSet } from '../../src/cards/card-set.js';
import type { CardView } from '../../src/cards/custom-ids.js';
import { printingsByPrice } from '../../src/cards/printings.js';
import type { CardSearchFilters } from '../../src/cards/search-filters.js';
import type { ChatInputContext, DeferrableContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError, type LocalizedText } from '../../src/interaction/errors.js';
import { presentationFor, type Presentation } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { renderCard } from '../../src/render/card.js';
import { checkedFilters } from '../../src/render/card-filters.js';
import { artworkWindow, renderArtwork } from '../../src/render/card-art.js';
import { cardDatabaseMissing } from '../../src/render/card-database.js';
import { noMatchMessage, renderDidYouMean } from '../../src/render/card-menus.js';
import { renderPrices } from '../../src/render/card-prices.js';
import { renderCardSet } from '../../src/render/card-set.js';
import { quoteUserText } from '../../src/render/user-text.js';
import type { AppServices } from '../../src/app/services.js';

/**
 * What `/card`'s subcommands and components share: how a typed name becomes a card, the wait for a
 * loading database, and the one reply each view of a card (or set) is.
 */

/** Longest a card name (68 characters today) or a search query may be. */
export const MAX_NAME_CHARS = 100;

/** Why there are no cards: a failed download (with its next attempt) or a load still under way. */
export function databaseMissing(app: AppServices): LocalizedText {
  const failure = app.cards.loadFailure;
  const now = app.clock.now().getTime();
  return (t) => cardDatabaseMissing(failure, now, t);
}

/** Waits for a loading card database (deferring when slow); refuses with why there is none. */
export async function waitForDatabase(ctx: Pick<DeferrableContext, 'defer'>, app: AppServices, ephemeral: boolean): Promise<void> {
  if (!(await app.cards.waitForDatabase((loaded) => deferWhenSlow(ctx, loaded, { ephemeral })))) throw new UserError(databaseMissing(app));
}

/**
 * The card the `name` option names (an autocomplete passcode or typed words, in the user's language
 * too), or the "Did you mean" menu whose pick opens `view`. Local once the database is loaded;
 * before that, an exact lookup upstream on the member's share.
 */
export async function namedCard(
  ctx: ChatInputContext,
  app: AppServices,
  options: { language: CardLanguage | undefined; explicitLanguage: string | null; view: CardView },
): Promise<{ card: Card } | { choices: Reply }> {
  const input = (ctx.options.getString('name') ?? '').trim();
  if (input === '') throw new UserError((t) => t.card.giveName);
  const { language, explicitLanguage } = options;
  const resolution = await app.cards.resolvePatiently(input, language, {
    share: app.memberShares.spenderFor(ctx.user.id, 'ygoprodeck'),
    pace: (work) => deferWhenSlow(ctx, work, { ephemeral: false }),
  });
  switch (resolution.kind) {
    case 'none':
      throw new UserError((t) => (app.cards.ready ? noMatchMessage(input, t) : `${t.card.notExactly(quoteUserText(input))} ${databaseMissing(app)(t)}`));
    case 'choices':
      return {
        choices: renderDidYouMean(
          input,
          resolution.candidates,
          explicitLanguage === null ? undefined : language,
          app.cards.localNames(resolution.candidates, language),
          presentationFor(ctx, explicitLanguage).messages,
          options.view,
        ),
      };
    case 'card':
      return { card: resolution.card };
  }
}

/**
 * The filters of `/card search` or `/card random`, checked: a value that is no filter, an unknown
 * archetype, or a format asked of a database that lists none are refused with a sentence. Waits
 * for a loading database (the archetype and the formats are checked against it).
 */
export async function filtersOf(ctx: ChatInputContext, app: AppServices, ephemeral: boolean): Promise<CardSearchFilters> {
  checkedFilters(ctx.options, undefined);
  await waitForDatabase(ctx, app, ephemeral);
  return checkedFilters(ctx.options, app.cards);
}

/**
 * The card's embed, in `language` when asked, with its art attached where Discord allows it (else
 * not even fetched); downloads are spent from the member's share of YGOPRODeck.
 */
export async function cardReply(
  app: AppServices,
  card: Card,
  language: CardLanguage | undefined,
  ctx: Pick<ChatInputContext, 'log' | 'user'>,
  presentation: Presentation,
): Promise<Reply> {
  const shown = await app.cards.present(card, language, {
    share: app.memberShares.spenderFor(ctx.user.id, 'ygoprodeck'),
    withArt: presentation.attachFiles,
    log: ctx.log,
  });
  const genesysPoints = app.cards.genesysPoints(card);
  return renderCard({
    card: shown.card,
    image: shown.art,
    messages: presentation.messages,
    ...(genesysPoints === undefined ? {} : { genesysPoints }),
    ...(presentation.attachFiles ? {} : { artNotAttachable: true }),
    ...(shown.translationUnavailable === undefined ? {} : { translationUnavailable: shown.translationUnavailable }),
  });
}

/** The card's prices, page `page` of its printings: local only, never a request. */
export function pricesReply(app: AppServices, card: Card, page: number, presentation: Presentation): Reply {
  return renderPrices({ card, printings: printingsByPrice(card), page, pricesAsOf: app.cards.pricesAsOf, messages: presentation.messages });
}

/** The card's artwork `index`, attached where Discord allows it (else not even fetched); its download is spent from the member's share. */
export async function artworkReply(app: AppServices, userId: string, card: Card, index: number, presentation: Presentation): Promise<Reply> {
  const shown = artworkWindow(card, index).index;
  const image = presentation.attachFiles ? await app.cards.artwork(card, shown, app.memberShares.spenderFor(userId, 'ygoprodeck')) : null;
  return renderArtwork({ card, index: shown, image, messages: presentation.messages, ...(presentation.attachFiles ? {} : { artNotAttachable: true }) });
}

/** The set with one page of its cards, and its image attached when the store has it or can get it. */
export async function setReply(app: AppServices, userId: string, set: CardSet, page: number, presentation: Presentation): Promise<Reply> {
  const image = presentation.attachFiles ? await app.cards.art(set, app.memberShares.spenderFor(userId, 'ygoprodeck')) : null;
  const reply = renderCardSet({ set, listings: app.cards.setListing(set), page, image, sharedCodeWith: app.cards.setsWithCode(set.code).length - 1 });
  return presentation.attachFiles ? reply : { ...reply, content: presentation.messages.install.artNotAttachable };
}
