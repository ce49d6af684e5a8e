import { LRUCache } from 'lru-cache';

/** An answer still tied to the message it answers: edited with it, deleted with it. */
export interface TrackedReply {
  channelId: string;
  replyId: string;
  /** The names the answer shows (`namesKey`), so an edit that changes none of them changes nothing. */
  names: string;
}

interface ReplyTrackerOptions {
  /** How long after the answer an edit or deletion of its message still reaches it. */
  ttlMs: number;
  /** Answers remembered at once (the oldest are forgotten first): the memory bound. */
  max: number;
  now: () => number;
}

/**
 * Which answer belongs to which message, for `ttlMs`, and one piece of work at a time per message:
 * an edit or a deletion that arrives while the answer is still being sent waits for it, so it
 * finds the answer instead of answering twice or leaving it behind.
 *
 * In this process only, on purpose: Discord delivers a server's messages, and their edits and
 * deletions, on the one gateway shard that server belongs to, so the process that answered is the
 * one that hears of them (in a fleet too). What is lost on a restart is at most five minutes of
 * answers that then stay as they are, as they do after five minutes anyway.
 */
export class ReplyTracker {
  private readonly replies: LRUCache<string, TrackedReply>;
  private readonly queues = new Map<string, Promise<void>>();

  constructor(options: ReplyTrackerOptions) {
    // ttlResolution 0: expiry follows `now` exactly (an injected clock may not move between reads).
    this.replies = new LRUCache({ max: options.max, ttl: options.ttlMs, ttlResolution: 0, perf: { now: options.now } });
  }

  get(messageId: string): TrackedReply | undefined {
    return this.replies.get(messageId);
  }

  /** `since`: when the message arrived (the follow time counts from then, not from when the answer was sent). */
  set(messageId: string, reply: TrackedReply, since: number): void {
    this.replies.set(messageId, reply, { start: since });
  }

  /** Keeps the answer's expiry: an edit does not give its message another five minutes. */
  update(messageId: string, names: string): void {
    const reply = this.replies.get(messageId);
    if (reply !== undefined) reply.names = names;
  }

  forget(messageId: string): void {
    this.replies.delete(messageId);
  }

  /** True while work on `messageId` is under way (its answer may be on its way). */
  busy(messageId: string): boolean {
    return this.queues.has(messageId);
  }

  /** Runs `work` once the earlier work on `messageId` is done; never rejects (`work` handles its failures). */
  serially(messageId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(messageId) ?? Promise.resolve();
    const next = previous.then(work).catch(() => undefined);
    this.queues.set(messageId, next);
    void next.then(() => {
      if (this.queues.get(messageId) === next) this.queues.delete(messageId);
    });
    return next;
  }
}
