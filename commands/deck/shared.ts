import type { AppServices } from '../../src/app/services.js';
import { allEntries } from '../../src/decks/deck-cards.js';
import { tileCards } from '../../src/decks/deck-layout.js';
import type { DeckList, ParsedDeck } from '../../src/decks/deck-list.js';
import { deckReport } from '../../src/decks/deck-report.js';
import { MAX_YDK_BYTES, parseYdkBytes } from '../../src/decks/ydk.js';
import type { AttachmentRef, ChatInputContext, DeferrableContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { renderDeck, type DeckView } from '../../src/render/deck.js';
import { deckPicture } from '../../src/render/deck-picture.js';
import { cardDatabaseMissing } from '../../src/render/card-database.js';
import { cardLanguageFor } from '../../src/cards/user-language.js';
import { presentationFor } from '../../src/interaction/presentation.js';

/** What `/deck show` and the **Read deck** message menu share: reading a deck, and showing it. */

type DeckContext = Pick<ChatInputContext, 'user' | 'appPermissions'> & Pick<DeferrableContext, 'defer' | 'progress'>;

/** The deck, or the one sentence that says why it cannot be read (nothing else runs). */
export function readDeck(parsed: ParsedDeck): DeckList {
  if (!parsed.ok) throw new UserError((t) => t.deck.problems[parsed.problem]);
  return parsed.deck;
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
export async function showDeck(ctx: DeckContext, app: AppServices, deck: DeckList, ephemeral: boolean): Promise<Reply> {
  if (!(await app.cards.waitForDatabase((loaded) => deferWhenSlow(ctx, loaded, { ephemeral })))) {
    const failure = app.cards.loadFailure;
    const now = app.clock.now().getTime();
    throw new UserError((t) => cardDatabaseMissing(failure, now, t));
  }
  return deferWhenSlow(ctx, pictured(ctx, app, deck, ephemeral), { ephemeral });
}

async function pictured(ctx: DeckContext, app: AppServices, deck: DeckList, ephemeral: boolean): Promise<Reply> {
  const cardOf = (password: number) => app.cards.byId(password);
  const report = deckReport(deck, cardOf);
  const cards = allEntries(report.cards).map((entry) => entry.card);
  const view: DeckView = {
    report,
    localNames: app.cards.localNames(cards, cardLanguageFor(null, ctx.user.locale)),
    pricesAsOf: app.cards.pricesAsOf,
    messages: presentationFor(ctx).messages,
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
