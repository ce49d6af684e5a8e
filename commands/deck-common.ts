import type { AppServices } from '../src/app/services.js';
import type { DeckList, ParsedDeck } from '../src/decks/deck-list.js';
import { deckReport } from '../src/decks/deck-report.js';
import { MAX_YDK_BYTES, parseYdkBytes } from '../src/decks/ydk.js';
import type { AttachmentRef, ChatInputContext, DeferrableContext } from '../src/interaction/context.js';
import { deferWhenSlow } from '../src/interaction/deferral.js';
import { UserError } from '../src/interaction/errors.js';
import type { Reply } from '../src/interaction/reply.js';
import { renderDeck } from '../src/render/deck.js';
import { localeCardLanguage, presentationFor, waitForDatabase } from './card-common.js';

/** What `/deck show` and the **Read deck** message menu share: reading a deck, and showing it. */

type DeckContext = Pick<ChatInputContext, 'user' | 'appPermissions'> & Pick<DeferrableContext, 'defer'>;

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

/** The deck looked up in the local card database (no request), checked per format and priced. */
export async function showDeck(ctx: DeckContext, app: AppServices, deck: DeckList, ephemeral: boolean): Promise<Reply> {
  await waitForDatabase(ctx, app, ephemeral);
  const report = deckReport(deck, (password) => app.cards.byId(password));
  const cards = Object.values(report.cards.sections).flatMap((entries) => entries.map((entry) => entry.card));
  return {
    ...renderDeck({
      report,
      localNames: app.cards.localNames(cards, localeCardLanguage(ctx)),
      pricesAsOf: app.cards.pricesAsOf,
      messages: presentationFor(ctx).messages,
    }),
    ephemeral,
  };
}
