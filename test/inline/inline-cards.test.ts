import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AppServices } from '../../src/app/services.js';
import type { Card } from '../../src/cards/card.js';
import { summarizeCard } from '../../src/cards/card-summary.js';
import { normaliseCards } from '../../src/cards/normalise-card.js';
import type { ChatChannels, ChatMessage, ChatMessageRef } from '../../src/inline/chat.js';
import { InlineCardSearch } from '../../src/inline/inline-cards.js';
import type { MessagePayload } from '../../src/interaction/reply.js';
import { MemberShares } from '../../src/state/member-shares.js';
import { createInProcessState } from '../../src/state/in-process.js';
import { loadCardDump } from '../helpers/card-dump.js';
import { LogCapture } from '../helpers/log-capture.js';

const DARK_MAGICIAN = 46986414;
const BLUE_EYES = 89631139;
const SECRET = 'quibblefrost';

/** A channel port that records every write; `hold` keeps the next send waiting until released. */
class RecordingChannels implements ChatChannels {
  readonly writes: { kind: 'send' | 'edit' | 'delete'; channelId: string; id: string; payload?: MessagePayload }[] = [];
  closed = new Set<string>();
  failNext = false;
  private sent = 0;
  /** While set, the next send tells it has started and waits to be let through. */
  private gate: { started: () => void; through: Promise<void> } | undefined;

  access(message: ChatMessageRef) {
    return this.closed.has(message.channelId) ? null : { attachFiles: true };
  }

  locale() {
    return 'en-US';
  }

  /** Holds the next send once it has started (`sending`) until `release`: an answer on its way to Discord. */
  hold(): { sending: Promise<void>; release: () => void } {
    let started!: () => void;
    let release!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    this.gate = { started, through: new Promise<void>((resolve) => (release = resolve)) };
    return { sending, release };
  }

  async send(source: ChatMessageRef, payload: MessagePayload): Promise<string> {
    const gate = this.gate;
    this.gate = undefined;
    if (gate) {
      gate.started();
      await gate.through;
    }
    if (this.failNext) {
      this.failNext = false;
      throw Object.assign(new Error(`refused: ${JSON.stringify(payload)}`), { status: 403, code: 50013 });
    }
    const id = `reply-${++this.sent}`;
    this.writes.push({ kind: 'send', channelId: source.channelId, id, payload });
    return id;
  }

  async edit(channelId: string, id: string, payload: MessagePayload): Promise<void> {
    this.writes.push({ kind: 'edit', channelId, id, payload });
  }

  async delete(channelId: string, id: string): Promise<void> {
    this.writes.push({ kind: 'delete', channelId, id });
  }
}

function setUp(options: { ready?: boolean } = {}) {
  const { cards } = normaliseCards(loadCardDump().filter((card) => [DARK_MAGICIAN, BLUE_EYES].includes(card.id)));
  const byName = new Map(cards.map((card) => [card.name.toLowerCase(), card]));
  const byId = new Map(cards.map((card) => [card.id, card]));
  let now = 1_700_000_000_000;
  const state = createInProcessState({ processId: 'test', now: () => now });
  const logs = new LogCapture();
  /** The member share each presented card's downloads were to be spent from. */
  const shares: unknown[] = [];
  const cardService = {
    ready: options.ready ?? true,
    async resolve(query: string) {
      const card = byName.get(query.toLowerCase());
      if (card) return { kind: 'card', card, by: 'name' };
      return query === 'dark' ? { kind: 'choices', candidates: cards.map((card) => summarizeCard(card, new Map(), new Map())) } : { kind: 'none' };
    },
    byId: (id: number) => byId.get(id),
    async present(card: Card, _language: unknown, options: { share?: { beforeRequest?: () => Promise<void> } }) {
      shares.push(options.share);
      return { card, art: { format: 'jpg', data: Buffer.from([0xff, 0xd8, 0xff]) } };
    },
    localNames: () => new Map(),
  };
  const app = {
    cards: cardService,
    memberShares: new MemberShares({ state, now: () => now }),
    state,
    clock: { now: () => new Date(now) },
    logger: pino({ level: 'debug' }, logs),
  } as unknown as AppServices;
  const channels = new RecordingChannels();
  const search = new InlineCardSearch(app, channels);
  let next = 0;
  const message = (content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
    id: `m${++next}`,
    channelId: 'c1',
    guildId: 'g1',
    authorId: 'u1',
    byBot: false,
    content,
    ...extra,
  });
  return { search, channels, logs, message, shares, advance: (ms: number) => void (now += ms) };
}

describe('InlineCardSearch', () => {
  it('answers the cards a message names, each once; a loose name with the closest card and a line', async () => {
    const { search, channels, message } = setUp();
    await search.created(message(`${SECRET} <Dark Magician> [[dark magician]] <Blue-Eyes White Dragon> <nothing like it>`));
    await search.created(message('<dark>'));
    expect(channels.writes.map((write) => write.payload?.embeds?.map((embed) => embed.title))).toEqual([['Dark Magician', 'Blue-Eyes White Dragon'], ['Blue-Eyes White Dragon']]);
    expect(channels.writes[1]!.payload?.content).toBe('No card is named exactly “dark”; here is the closest. Did you mean **Dark Magician**?');
  });

  it('spends the art downloads from the author’s member share of YGOPRODeck, as /card show does', async () => {
    const { search, message, shares } = setUp();
    await search.created(message('<Dark Magician>', { authorId: 'flooder' }));
    const [share] = shares as { beforeRequest: () => Promise<void> }[];
    for (let download = 0; download < 12; download++) await share!.beforeRequest();
    await expect(share!.beforeRequest()).rejects.toMatchObject({ name: 'MemberShareSpent' });
  });

  it('stays silent for bots, for messages naming no card, where it may not post, and before the card database has loaded', async () => {
    const { search, channels, message } = setUp();
    channels.closed.add('closed');
    await search.created(message('<Dark Magician>', { byBot: true }));
    await search.created(message('no card here, `<Dark Magician>`'));
    await search.created(message('<Dark Magician>', { channelId: 'closed' }));
    await search.created(message('<nothing like it>'));
    expect(channels.writes).toEqual([]);

    const loading = setUp({ ready: false });
    await loading.search.created(loading.message('<Dark Magician>'));
    expect(loading.channels.writes).toEqual([]);
  });

  it('answers a message once, however often it is delivered (a replay on RESUME, two sessions of one shard)', async () => {
    const { search, channels, message } = setUp();
    const twice = message('<Dark Magician>');
    await Promise.all([search.created(twice), search.created({ ...twice })]);
    await search.created(twice);
    expect(channels.writes).toHaveLength(1);
  });

  it('gives a channel at most 5 answers in any 10 s (edits count), other channels unaffected', async () => {
    const { search, channels, message, advance } = setUp();
    for (let index = 0; index < 8; index++) await search.created(message('<Dark Magician>'));
    await search.created(message('<Dark Magician>', { channelId: 'c2' }));
    expect(channels.writes.filter((write) => write.channelId === 'c1')).toHaveLength(5);
    expect(channels.writes.filter((write) => write.channelId === 'c2')).toHaveLength(1);
    advance(9_999);
    await search.created(message('<Dark Magician>'));
    expect(channels.writes).toHaveLength(6);
    advance(2);
    await search.created(message('<Dark Magician>'));
    expect(channels.writes).toHaveLength(7);
  });

  it('follows an edit or a deletion that comes while the answer is still on its way', async () => {
    const { search, channels, message } = setUp();
    const edited = message('<Dark Magician>');
    let held = channels.hold();
    const answering = search.created(edited);
    await held.sending;
    const editing = search.updated({ ...edited, content: '<Blue-Eyes White Dragon>' });
    held.release();
    await Promise.all([answering, editing]);
    expect(channels.writes.map((write) => [write.kind, write.id, write.payload?.embeds?.[0]?.title])).toEqual([
      ['send', 'reply-1', 'Dark Magician'],
      ['edit', 'reply-1', 'Blue-Eyes White Dragon'],
    ]);

    const deleted = message('<Dark Magician>');
    held = channels.hold();
    const answeringAgain = search.created(deleted);
    await held.sending;
    const deleting = search.deleted(deleted);
    held.release();
    await Promise.all([answeringAgain, deleting]);
    expect(channels.writes.slice(2).map((write) => [write.kind, write.id])).toEqual([
      ['send', 'reply-2'],
      ['delete', 'reply-2'],
    ]);
  });

  it('leaves an answer alone once its message is older than 5 minutes', async () => {
    const { search, channels, message, advance } = setUp();
    const old = message('<Dark Magician>');
    await search.created(old);
    advance(5 * 60_000 + 1);
    await search.updated({ ...old, content: '<Blue-Eyes White Dragon>' });
    await search.deleted(old);
    expect(channels.writes.map((write) => write.kind)).toEqual(['send']);
  });

  it('logs a refused post by its code, never the message or the answer', async () => {
    const { search, channels, logs, message } = setUp();
    channels.failNext = true;
    await search.created(message(`${SECRET} <Dark Magician>`));
    expect(channels.writes).toEqual([]);
    const refusal = logs.entries().find((entry) => entry.msg === 'could not answer a message');
    expect(refusal).toMatchObject({ status: 403, code: 50013 });
    expect(logs.text).not.toContain(SECRET);
    expect(logs.text).not.toContain('Dark Magician');
  });
});
