import { messagesFor } from '../../src/i18n/messages.js';
import type { AppServices } from '../../src/app/services.js';
import { allEntries } from '../../src/decks/deck-cards.js';
import { tileCards } from '../../src/decks/deck-layout.js';
import type { DeckList, ParsedDeck } from '../../src/decks/deck-list.js';
import { deckReport } from '../../src/decks/deck-report.js';
import { MAX_YDK_BYTES, parseYdkBytes } from '../../src/decks/ydk.js';
import { parseYdke } from '../../src/decks/ydke.js';
import type { AttachmentRef, ChatInputContext, ComponentContext, ComponentResult, DeferrableContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { renderDeck, type DeckView } from '../../src/render/deck.js';
import { deckPicture } from '../../src/render/deck-picture.js';
import { cardDatabaseMissing } from '../../src/render/card-database.js';
import { cardLanguageFor } from '../../src/cards/user-language.js';
import { privateAnswer } from '../../src/interaction/presentation.js';
import { mainDeckCards, type OddsCard } from '../../src/decks/opening-odds.js';
import { mainDeckText, MAX_ODDS_CARDS, parseMainDeckText } from '../../src/decks/odds-custom-ids.js';
import { renderOdds } from '../../src/render/deck-odds.js';
import type { Card } from '../../src/cards/card.js';
import { deckCopiesOf } from '../../src/cards/banlist.js';

/** What `/deck show` and the **Read deck** message menu share: reading a deck, and showing it. */

type DeckContext = Pick<ChatInputContext, 'user' | 'appPermissions' | 'settings' | 'channel'> & Pick<DeferrableContext, 'defer' | 'progress'>;

/** The deck, or the one sentence that says why it cannot be read (nothing else runs). */
export function readDeck(parsed: ParsedDeck): DeckList {
  if (!parsed.ok) throw new UserError((t) => t.deck.problems[parsed.problem]);
  return parsed.deck;
}

/** The deck of a subcommand's `url` or `file` option (exactly one of them), or the sentence that says why not. */
export async function deckFromOptions(ctx: ChatInputContext, app: AppServices, ephemeral: boolean): Promise<DeckList> {
  const url = ctx.options.getString('url');
  const file = ctx.options.getAttachment('file');
  if ((url === null) === (file === null)) throw new UserError((t) => t.deck.oneSource);
  return file === null ? readDeck(parseYdke(url ?? '')) : deckFromFile(ctx, app, file, ephemeral);
}

/**
 * A `.ydk` attachment's deck: read from Discord's CDN (at most `MAX_YDK_BYTES`; the download is
 * deferred for when it is slow), then parsed.
 */
export async function deckFromFile(ctx: DeckContext, app: AppServices, file: AttachmentRef, ephemeral: boolean): Promise<DeckList> {
  const read = await deferWhenSlow(ctx, app.attachments.read(file, MAX_YDK_BYTES), { ephemeral });
  if (!read.ok) throw new UserError((t) => t.deck.fileProblems[read.problem]);
  return readDeck(parseYdkBytes(read.bytes));
}

/**
 * The deck looked up in the local card database, checked per format, priced, and pictured: with the
 * art that is stored or within the member's share now, and, when some was left for the background,
 * completed later (the reply is then edited with the whole picture).
 */
export async function showDeck(ctx: DeckContext, app: AppServices, deck: DeckList, how: { ephemeral: boolean; pointsCap: number }): Promise<Reply> {
  const { ephemeral } = how;
  await waitForCards(ctx, app, ephemeral);
  if (!ephemeral) await keepForBanlists(ctx, app, deck);
  return deferWhenSlow(ctx, pictured(ctx, app, deck, how), { ephemeral });
}

/**
 * A deck shown for everyone in a server channel that follows a ban list is kept (its cards only,
 * 90 days) so that the next change can say whether it makes the deck illegal. A database failure
 * never stops the deck being shown.
 */
async function keepForBanlists(ctx: DeckContext, app: AppServices, deck: DeckList): Promise<void> {
  const guildId = ctx.channel.guildId;
  if (app.banlists === undefined || ctx.channel.kind === 'dm' || guildId === undefined) return;
  const copies = deckCopiesOf([...deck.main, ...deck.extra, ...deck.side], (password) => app.cards.byId(password)?.id);
  await app.banlists.deckShown(guildId, ctx.channel.id, copies).catch((error: unknown) => app.logger.warn({ err: error }, 'keeping a deck for the ban-list check failed'));
}

async function waitForCards(ctx: DeckContext, app: AppServices, ephemeral: boolean): Promise<void> {
  if (!(await app.cards.waitForDatabase((loaded) => deferWhenSlow(ctx, loaded, { ephemeral })))) {
    const failure = app.cards.loadFailure;
    const now = app.clock.now().getTime();
    throw new UserError((t) => cardDatabaseMissing(failure, now, t));
  }
}

/**
 * The Main Deck's distinct cards for **Opening odds**, or the sentence that says why there are no
 * odds to give (no Main Deck, or more distinct cards than the menus' custom_ids can mark).
 */
export function oddsCards(main: readonly number[], app: AppServices): OddsCard[] {
  const cards = mainDeckCards(main, (password) => app.cards.byId(password));
  if (cards.length === 0) throw new UserError((t) => t.deck.odds.noMain);
  if (cards.length > MAX_ODDS_CARDS) throw new UserError((t) => t.deck.odds.tooMany);
  return cards;
}

/** Names in the player's language for the odds' menus and answer. */
export function oddsNames(ctx: Pick<ChatInputContext, 'user'>, app: AppServices, cards: readonly OddsCard[]): ReadonlyMap<number, string> {
  return app.cards.localNames(
    cards.flatMap((entry): Card[] => (entry.card === undefined ? [] : [entry.card])),
    cardLanguageFor(null, ctx.user.locale),
  );
}

/** `/deck odds`: the deck's Main Deck remembered (the menus carry its key), and the menus with nothing marked yet. */
export async function startOdds(ctx: DeckContext, app: AppServices, deck: DeckList): Promise<Reply> {
  await waitForCards(ctx, app, true);
  const cards = oddsCards(deck.main, app);
  const key = await app.state.longQueries.remember(mainDeckText(deck.main));
  const picks = { key, startersPage: 0, neededPage: 0, starters: [], needed: [] };
  return { ...renderOdds({ cards, picks, localNames: oddsNames(ctx, app, cards), messages: messagesFor(ctx.user.locale) }), ephemeral: true };
}

async function pictured(ctx: DeckContext, app: AppServices, deck: DeckList, { ephemeral, pointsCap }: { ephemeral: boolean; pointsCap: number }): Promise<Reply> {
  const cardOf = (password: number) => app.cards.byId(password);
  const report = deckReport(deck, cardOf, { pool: app.cards.genesysPool(), cap: pointsCap });
  const cards = allEntries(report.cards).map((entry) => entry.card);
  // A public deck speaks the place's language; one only the member sees, theirs.
  const locale = ephemeral ? ctx.user.locale : ctx.settings.publicLocale;
  const view: DeckView = {
    report,
    localNames: app.cards.localNames(cards, cardLanguageFor(null, locale)),
    pricesAsOf: app.cards.pricesAsOf,
    messages: messagesFor(locale),
    ...(deck.main.length > 0 ? { mainDeckKey: await app.state.longQueries.remember(mainDeckText(deck.main)) } : {}),
  };
  const tiles = tileCards(deck, cardOf);
  const gathered = await app.deckArt.gather(
    tiles.flatMap((tile) => tile.imageId ?? []),
    app.memberShares.spenderFor(ctx.user.id, 'ygoprodeck'),
  );
  const picture = (art: ReadonlyMap<number, Buffer>, onWait?: (ahead: number) => void) =>
    app.deckPictures.draw(ctx.user.id, deckPicture(view, tiles, art), onWait);
  const sayWaiting = (ahead: number) => void ctx.progress(view.messages.deck.pictureWaiting(String(ahead)), { ephemeral }).catch(() => undefined);
  const reply: Reply = { ...renderDeck(view, { image: await picture(gathered.art, sayWaiting), pendingArt: gathered.pending.length }), ephemeral };
  if (gathered.pending.length === 0) return reply;
  // The completed picture takes its turn like any other; refused, the first picture stays.
  const completion = app.deckArt.complete(gathered).then(async (art) => renderDeck(view, { image: await picture(art), pendingArt: 0 }));
  return { ...reply, completion };
}

/**
 * The Main Deck a shown deck's menus (Opening odds, Small World) name by `key`, or the private
 * sentence that says why not: the presser is not the member who showed it, the card database is not
 * loaded, or the deck is no longer remembered.
 */
export async function menuDeck(
  ctx: ComponentContext,
  app: AppServices,
  key: string,
  refusals: { notYours: string; forgotten: string },
): Promise<{ main: number[] } | { refusal: ComponentResult }> {
  const t = messagesFor(ctx.user.locale);
  if (ctx.message.ownerId === null || ctx.message.ownerId !== ctx.user.id) return { refusal: privateAnswer(refusals.notYours) };
  if (!app.cards.ready) return { refusal: privateAnswer(cardDatabaseMissing(app.cards.loadFailure, app.clock.now().getTime(), t)) };
  const text = await app.state.longQueries.recall(key);
  const main = text === undefined ? null : parseMainDeckText(text);
  return main === null ? { refusal: privateAnswer(refusals.forgotten) } : { main };
}
