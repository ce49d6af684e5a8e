import type { Logger } from 'pino';
import type { Card, CardLanguage } from '../cards/card.js';
import type { CardSummary } from '../cards/card-summary.js';
import { inlineCardNames, nameKey } from '../cards/inline-names.js';
import { cardLanguageFor } from '../cards/user-language.js';
import { messagesFor } from '../i18n/messages.js';
import type { MessagePayload } from '../interaction/reply.js';
import { renderInlineCards, type InlineCardAnswer } from '../render/inline-cards.js';
import type { MemberShareLedger } from '../state/member-share-ledger.js';
import type { SeenOnce } from '../state/shared-state.js';
import type { AppServices } from '../app/services.js';
import type { ChannelAccess, ChatChannels, ChatMessage, ChatMessageHandler, ChatMessageRef } from './chat.js';
import { ReplyTracker } from './reply-tracker.js';

/**
 * Cards named inline in chat (`<Ash Blossom>`, `[[Effect Veiler]]`, `MESSAGE_SEARCH=true`): a
 * message that names cards gets one reply with up to three of them, in its server's language, with
 * their art; editing the message within five minutes updates the reply, deleting it deletes the
 * reply. Everything is local once the card database is loaded: only art not yet stored is
 * downloaded, on the author's member share of YGOPRODeck, as for `/card show`.
 *
 * Silent wherever an answer would be refused or unwelcome: messages of bots, webhooks and Almanac
 * itself, channels where Almanac may not post (admins switch the feature off per channel by denying
 * it Send Messages), a channel past its 5 answers in 10 s, and before the card database has loaded.
 * A message's text is never logged.
 */

const INLINE_CARD_LIMITS = {
  /**
   * Answers (new or edited) per channel in any `windowMs`, counted by the whole fleet with Redis:
   * as they are posted, and, to bound the work a flood makes (art, rendering), as they are begun.
   */
  perChannel: 5,
  windowMs: 10_000,
  /** How long an edit or deletion of the message still reaches its answer. */
  followMs: 5 * 60_000,
  /** Answers followed at once (the memory bound: ≈100 B each). */
  followed: 20_000,
} as const;

/** How long a message id stays claimed by the process answering it, so two processes on one shard (a rolling deploy) answer once. */
const CLAIM_MS = 10 * 60_000;

/** The names shown, as one comparable key: an edit that leaves it unchanged (an embed added, a typo fixed outside the brackets) changes nothing. */
function namesKey(names: readonly string[]): string {
  return names.map(nameKey).join('\n');
}

/** Most other close cards offered for a name matched only loosely. */
const MAX_ALSO_CLOSE = 3;

/** A name and the card it was read as; `alsoClose` as in `InlineCardAnswer`, before their names are put in the reader's language. */
interface Reading {
  query: string;
  card: Card;
  alsoClose: CardSummary[] | null;
}

export class InlineCardSearch implements ChatMessageHandler {
  private readonly tracker: ReplyTracker;
  /** Answers begun per channel: a flood past the cap renders and downloads nothing. */
  private readonly begun: MemberShareLedger;
  /**
   * Answers posted per channel: the cap itself. Counted apart from `begun` because an answer waits
   * for its art between the two: counted only when begun, the answers of one window posted late
   * landed in the next one beside that window's own (6 in 10 s was seen).
   */
  private readonly posted: MemberShareLedger;
  private readonly claims: SeenOnce;
  private readonly logger: Logger;

  constructor(
    private readonly app: Pick<AppServices, 'cards' | 'memberShares' | 'state' | 'clock' | 'logger' | 'settings'>,
    private readonly channels: ChatChannels,
  ) {
    const now = () => app.clock.now().getTime();
    this.logger = app.logger.child({ feature: 'inline-cards' });
    this.tracker = new ReplyTracker({ ttlMs: INLINE_CARD_LIMITS.followMs, max: INLINE_CARD_LIMITS.followed, now });
    // Sliding windows per channel, kept like a member share's (fleet-wide with Redis).
    const perChannel = (name: string) => app.state.memberShareLedger({ name, limit: INLINE_CARD_LIMITS.perChannel, windowMs: INLINE_CARD_LIMITS.windowMs, now });
    this.begun = perChannel('inline-cards-begun-per-channel');
    this.posted = perChannel('inline-cards-per-channel');
    this.claims = app.state.seenOnce({ name: 'inline-card-messages', ttlMs: CLAIM_MS, maxKeys: INLINE_CARD_LIMITS.followed });
  }

  /** A new message: answered when it names cards. Resolves when done; never rejects. */
  created(message: ChatMessage): Promise<void> {
    if (message.byBot) return Promise.resolve();
    const names = inlineCardNames(message.content);
    if (names.length === 0) return Promise.resolve();
    return this.tracker.serially(message.id, () => this.answer(message, names));
  }

  /** An edited message: its answer, when it has one from the last five minutes, follows the names it now holds. */
  updated(message: ChatMessage): Promise<void> {
    if (message.byBot || !this.follows(message.id)) return Promise.resolve();
    return this.tracker.serially(message.id, () => this.reanswer(message));
  }

  /** A deleted message: its answer from the last five minutes goes with it. */
  deleted(message: ChatMessageRef): Promise<void> {
    if (!this.follows(message.id)) return Promise.resolve();
    return this.tracker.serially(message.id, async () => {
      const reply = this.tracker.get(message.id);
      if (reply === undefined) return;
      this.tracker.forget(message.id);
      await this.attempt('delete the answer of a deleted message', message, () => this.channels.delete(reply.channelId, reply.replyId));
    });
  }

  /** The message has an answer from the last five minutes, or one may be on its way: an edit or deletion waits for it. */
  private follows(messageId: string): boolean {
    return this.tracker.busy(messageId) || this.tracker.get(messageId) !== undefined;
  }

  private async answer(message: ChatMessage, names: readonly string[]): Promise<void> {
    const arrivedAt = this.app.clock.now().getTime();
    const access = this.channels.access(message);
    if (access === null) return;
    const locale = await this.localeIfOn(message);
    if (locale === null) return;
    const readings = await this.read(names, locale);
    if (readings.length === 0) return;
    if (!(await this.claims.firstTime(message.id))) return;
    if (!(await this.allowedIn(this.begun, message))) return;
    const payload = await this.payload(message, readings, access, locale);
    if (!(await this.allowedIn(this.posted, message))) return;
    const replyId = await this.attempt('answer a message', message, () => this.channels.send(message, payload));
    if (replyId === undefined) return;
    this.tracker.set(message.id, { channelId: message.channelId, replyId, names: namesKey(names) }, arrivedAt);
    this.logger.debug({ messageId: message.id, channelId: message.channelId, cards: readings.map((reading) => reading.card.id) }, 'answered cards named inline');
  }

  private async reanswer(message: ChatMessage): Promise<void> {
    const reply = this.tracker.get(message.id);
    if (reply === undefined) return;
    const names = inlineCardNames(message.content);
    if (namesKey(names) === reply.names) return;
    const locale = (await this.localeIfOn(message)) ?? this.channels.locale(message);
    const readings = await this.read(names, locale);
    if (readings.length === 0) {
      this.tracker.forget(message.id);
      await this.attempt('delete the answer of a message that names no card now', message, () => this.channels.delete(reply.channelId, reply.replyId));
      return;
    }
    const access = this.channels.access(message);
    if (access === null || !(await this.allowedIn(this.begun, message))) return;
    const payload = await this.payload(message, readings, access, locale);
    if (!(await this.allowedIn(this.posted, message))) return;
    this.tracker.update(message.id, namesKey(names));
    await this.attempt('update the answer of an edited message', message, () => this.channels.edit(reply.channelId, reply.replyId, payload));
  }

  /**
   * The locale answers in the message's channel are written in (the channel's or server's
   * `/settings language`, else the server's preferred locale), or null when `/settings inline-cards`
   * switched them off there. From the settings cache: no query per message. A database that fails
   * to answer costs the choices, not the answer.
   */
  private async localeIfOn(message: ChatMessageRef): Promise<string | null> {
    const { settings } = this.app;
    if (settings === undefined || message.guildId === null) return this.channels.locale(message);
    try {
      const effective = await settings.effectiveChannelSettings(message.guildId, message.channelId);
      if (!effective.inlineCards.value) return null;
      return effective.publicLanguage.value ?? this.channels.locale(message);
    } catch (error) {
      this.logger.warn({ err: error, channelId: message.channelId }, 'settings unreadable; answering cards named inline as if nothing was chosen');
      return this.channels.locale(message);
    }
  }

  /**
   * Each name's best card (each card once), from the local database only: nothing before it has
   * loaded (then only an exact lookup upstream would answer, and chat is no reason to ask one).
   */
  private async read(names: readonly string[], locale: string): Promise<Reading[]> {
    const { cards } = this.app;
    if (!cards.ready) return [];
    const language = cardLanguageFor(null, locale);
    const readings: Reading[] = [];
    const shown = new Set<number>();
    for (const query of names) {
      const reading = await this.readOne(query, language);
      if (reading === undefined || shown.has(reading.card.id)) continue;
      shown.add(reading.card.id);
      readings.push(reading);
    }
    return readings;
  }

  private async readOne(query: string, language: CardLanguage | undefined): Promise<Reading | undefined> {
    const resolution = await this.app.cards.resolve(query, language);
    if (resolution.kind === 'card') return { query, card: resolution.card, alsoClose: null };
    if (resolution.kind === 'none') return undefined;
    const [best, ...others] = resolution.candidates;
    const card = best === undefined ? undefined : this.app.cards.byId(best.id);
    return card === undefined ? undefined : { query, card, alsoClose: others.slice(0, MAX_ALSO_CLOSE) };
  }

  /** Takes one of the channel's answers from `ledger`; none left is logged (never the message's text). */
  private async allowedIn(ledger: MemberShareLedger, message: ChatMessageRef): Promise<boolean> {
    const decision = await ledger.take(message.channelId);
    if (!decision.allowed) this.logger.debug({ messageId: message.id, channelId: message.channelId }, 'cards named inline not answered: the channel had its answers for now');
    return decision.allowed;
  }

  private async payload(message: ChatMessage, readings: readonly Reading[], access: ChannelAccess, locale: string): Promise<MessagePayload> {
    const language = cardLanguageFor(null, locale);
    const share = this.app.memberShares.spenderFor(message.authorId, 'ygoprodeck');
    const log = this.logger.child({ messageId: message.id });
    const answers = await Promise.all(
      readings.map(async (reading): Promise<InlineCardAnswer> => {
        const shown = await this.app.cards.present(reading.card, language, { share, withArt: access.attachFiles, log });
        const localNames = reading.alsoClose === null ? undefined : this.app.cards.localNames(reading.alsoClose, language);
        return {
          ...shown,
          query: reading.query,
          alsoClose: reading.alsoClose === null ? null : reading.alsoClose.map((close) => localNames?.get(close.id) ?? close.name),
        };
      }),
    );
    return renderInlineCards({ answers, messages: messagesFor(locale), attachFiles: access.attachFiles });
  }

  /** Runs a write to Discord; a failure is logged (its code, never the message) and ends this answer. */
  private async attempt<T>(what: string, message: ChatMessageRef, write: () => Promise<T>): Promise<T | undefined> {
    try {
      return await write();
    } catch (error) {
      const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
      this.logger.warn({ messageId: message.id, channelId: message.channelId, status, code }, `could not ${what}`);
      return undefined;
    }
  }
}
