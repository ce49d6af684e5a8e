import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RawCard } from '../../src/cards/normalise-card.js';
import { LANGUAGE_NAMES } from '../../src/render/card-labels.js';
import { YGOPRODECK_CACHE } from '../../src/services/ygoprodeck/ygoprodeck-limits.js';
import { htmlPage, json } from '../fakes/fake-server.js';
import { translatedCard } from '../fakes/card-translations.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { startTestBot, type TestBot } from '../helpers/bot.js';
import { writeCardSnapshot } from '../helpers/card-snapshot.js';
import {
  answerOf,
  applyFault,
  CacheClock,
  clockedCaches,
  crashLines,
  endFault,
  expectNoSecretLeaks,
  expectPlainSentence,
  scaledLimiters,
  startFaultProxy,
  UPSTREAM_FAULTS,
  type Answer,
  type FaultAnswers,
  type FaultProxy,
  type UpstreamFault,
  TEST_REQUEST_TIMEOUT_MS,
} from '../helpers/reliability.js';
import type { Catalogue } from '../../src/i18n/catalogue.js';
import { en } from '../../src/i18n/en.js';
import { fr } from '../../src/i18n/fr.js';

/**
 * Every YGOPRODeck fault of the issue, through the card paths that reach YGOPRODeck, on two bots
 * sharing one fault proxy:
 * - "remote": its card database cannot load (the fake's 300 cards are under the 5,000 a download
 *   must have), so `/card show` asks `cardinfo.php` for an exact name or passcode;
 * - "local": its card database is a snapshot on disk, so `/card show`, its `language` option,
 *   `/card random` and `/card set` reach YGOPRODeck only for card and set art (translations are
 *   local: the snapshot has every language), and degrade without it.
 * Circuit pauses (30 s after a 5xx, Retry-After or an hour after a 429) are scaled down.
 */

const pacing = { pauseScale: 40 };

const FAULT_ANSWERS: FaultAnswers = {
  // JSON with a data array, but nothing in it is a card (and it is no image either).
  unexpectedShape: json(200, { data: [{ id: 'forty-six', name: null }] }),
  rateLimitPage: (headers) => htmlPage(429, 'Too Many Requests', headers),
};

const EXPECTED_SENTENCE: Record<UpstreamFault['kind'], RegExp> = {
  unavailable: /^YGOPRODeck is unavailable right now, try again in a minute\.$/,
  bad_response: /^YGOPRODeck sent an answer we could not read; try again later\.$/,
  rate_limited: /^YGOPRODeck asked us to slow down; try again in (\d+ seconds?|about an hour)\.$/,
};

describe('YGOPRODeck faults through the card paths that reach it', () => {
  let ygoprodeck: FakeYgoprodeck;
  let proxy: FaultProxy;
  let remote: TestBot;
  let local: TestBot;
  let localDataDir: string;
  const cacheClock = new CacheClock();
  let nextCard = 0;
  /** A card nobody asked about yet (so its lookup and its art are not cached), with art upstream. */
  // Not fresh either: a card whose art was fetched already, by `/card random` in an earlier case
  // (its draw is random), has that art stored and is shown with it even during a fault.
  const artFetched = (card: RawCard) => ygoprodeck.requestsTo('/images/cards/').some((request) => request.path.endsWith(`/${card.card_images?.[0]?.id ?? card.id}.jpg`));
  const freshCard = (): RawCard => {
    for (;;) {
      const card = ygoprodeck.cards[nextCard++ % ygoprodeck.cards.length]!;
      if (!card.name.includes('|') && !artFetched(card)) return card;
    }
  };

  let nextSet = 0;
  const setImagesUsed = new Set<string>();
  /** A set (one of its name) whose image nobody has asked for yet. */
  const freshSet = (): string => {
    for (;;) {
      const set = ygoprodeck.cardSets[nextSet++]!;
      const unique = ygoprodeck.cardSets.filter((other) => other.set_name === set.set_name).length === 1;
      if (typeof set.set_image === 'string' && unique && !setImagesUsed.has(set.set_image)) {
        setImagesUsed.add(set.set_image);
        return set.set_name;
      }
    }
  };

  const show = (bot: TestBot, name: string, language?: string) =>
    bot.discord.chatInput({ name: 'card', subcommand: 'show', options: { name, ...(language ? { language } : {}) } });
  const random = (bot: TestBot) => bot.discord.chatInput({ name: 'card', subcommand: 'random' });
  const showSet = (bot: TestBot, name: string) => bot.discord.chatInput({ name: 'card', subcommand: 'set', options: { name } });

  function expectCard(answer: Answer, card?: RawCard, messages: Catalogue = en): void {
    expect(answer.embeds, answer.content).toHaveLength(1);
    if (card) expect(answer.embeds[0]!.footer?.text).toContain(`${messages.card.passcode} ${String(card.id).padStart(8, '0')}`);
  }

  const endYgoprodeckFault = () => endFault(proxy, () => [remote, local].map((bot) => bot.app.services.cards.health().limiter));

  /**
   * Applies `fault`. A 429 without Retry-After pauses YGOPRODeck for an hour: run 2,400× faster, so
   * the recovery after it can be seen, and so it ends within the next test's wait for the fault to
   * end (at the usual 40× it lasts 90 s, and a background refresh of an expired card meets it too).
   */
  const applyYgoprodeckFault = (fault: UpstreamFault) => {
    if (fault.kind === 'rate_limited' && fault.retryAfterSeconds === undefined) pacing.pauseScale = 2_400;
    applyFault(proxy, fault, FAULT_ANSWERS);
  };

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    proxy = await startFaultProxy(ygoprodeck.url);
    localDataDir = await mkdtemp(join(tmpdir(), 'almanac-reliability-cards-'));
    await writeCardSnapshot(localDataDir, ygoprodeck.cards, ygoprodeck.version);
    const env = { YGOPRODECK_URL: proxy.url, YGOPRODECK_IMAGES_URL: `${proxy.url}/images` };
    // One member runs every fault: their share of YGOPRODeck is lifted (fair-share.test.ts tests it).
    const overrides = { limiterFactory: scaledLimiters(1, pacing), memberShares: { ygoprodeck: { limit: 10_000 } }, requestTimeoutMs: TEST_REQUEST_TIMEOUT_MS };
    remote = await startTestBot({ env, overrides: { ...overrides, cacheFactory: clockedCaches(cacheClock) } });
    local = await startTestBot({ env: { ...env, DATA_DIR: localDataDir }, overrides });
  });

  it('starts one bot on its snapshot and leaves the other without a usable database', async () => {
    expect(local.app.services.cards.ready).toBe(true);
    // The set list's matcher is built in the card worker, which yields its core to the event loop on a busy machine.
    expect(await local.app.services.cards.whenSetsReady(10_000)).toBe(true);
    // The remote bot's first download was refused as corrupt (too few cards): it stays remote-only.
    await expect.poll(() => remote.app.services.cards.health().details.cardDatabaseLastError, { timeout: 10_000 }).toBe('bad_response');
    expect(remote.app.services.cards.ready).toBe(false);
  });

  afterAll(async () => {
    await remote?.stop();
    await local?.stop();
    await proxy?.close();
    await ygoprodeck?.close();
    if (localDataDir) await rm(localDataDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    pacing.pauseScale = 40;
    await endYgoprodeckFault();
  });

  it.each(UPSTREAM_FAULTS)('$name: answered within 3 s and 20 s: a plain sentence remotely, the card without what failed locally', { timeout: 60_000 }, async (fault) => {
    const [byName, byPasscode, translated, set] = [freshCard(), freshCard(), freshCard(), freshSet()];
    applyYgoprodeckFault(fault);
    const exchanges = await Promise.all([
      show(remote, byName.name),
      show(local, String(byPasscode.id)),
      show(local, String(translated.id), 'fr'),
      random(local),
      showSet(local, set),
    ]);
    const [remoteAnswer, plainAnswer, frenchAnswer, randomAnswer, setAnswer] = await Promise.all(exchanges.map((exchange) => answerOf(exchange)));

    expectPlainSentence(remoteAnswer!, EXPECTED_SENTENCE[fault.kind]);
    if (fault.kind === 'rate_limited') {
      // Retry-After, never under 30 s (a shorter one could lead straight back into a ban); an hour without one, in words.
      const wait = fault.retryAfterSeconds === undefined ? 'about an hour' : `${fault.retryAfterSeconds} seconds`;
      expect(remoteAnswer!.content).toBe(`YGOPRODeck asked us to slow down; try again in ${wait}.`);
    }
    // Locally the card is always shown, without the art that could not be had; its French text is local too.
    expectCard(plainAnswer!, byPasscode);
    expect(plainAnswer!.files).toEqual([]);
    // `language: fr` asks for French words too: Almanac's own words are French whatever the card text is.
    expectCard(frenchAnswer!, translated, fr);
    const french = translatedCard(translated, 'fr');
    expect(frenchAnswer!.embeds[0]!.footer?.text).toContain(
      french === undefined ? fr.card.translationUnavailable(LANGUAGE_NAMES.fr) : `${LANGUAGE_NAMES.fr} · ${fr.card.englishName('')}`,
    );
    if (french !== undefined) expect(frenchAnswer!.embeds[0]!.title).toBe(french.name);
    expectCard(randomAnswer!);
    expect(setAnswer!.embeds, setAnswer!.content).toHaveLength(1);
    expect(setAnswer!.files).toEqual([]);

    if (['html500', '429'].includes(fault.cause)) {
      // The circuit is open: nothing more is sent until it closes, and the remote lookup says so at once.
      const sent = proxy.requests.length;
      expectPlainSentence(await answerOf(await show(remote, freshCard().name)), EXPECTED_SENTENCE.rate_limited);
      expect(proxy.requests.length).toBe(sent);
    }

    await endYgoprodeckFault();
    const [again, withArt] = [freshCard(), freshCard()];
    expectCard(await answerOf(await show(remote, again.name)), again);
    const recovered = await answerOf(await show(local, String(withArt.id)));
    expectCard(recovered, withArt);
    expect(recovered.files).toEqual([`card-${withArt.card_images?.[0]?.id ?? withArt.id}.jpg`]);
    expect((await answerOf(await showSet(local, freshSet()))).files).toHaveLength(1);
    expect(crashLines(remote)).toEqual([]);
    expect(crashLines(local)).toEqual([]);
  });

  it.each(UPSTREAM_FAULTS)('$name: a card looked up before (now expired) is still shown, and the local database keeps serving', { timeout: 30_000 }, async (fault) => {
    const card = freshCard();
    expectCard(await answerOf(await show(remote, card.name)), card);
    cacheClock.advance(YGOPRODECK_CACHE.cardTtlMs + 60_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    applyYgoprodeckFault(fault);
    expectCard(await answerOf(await show(remote, card.name)), card);
    const search = await answerOf(await local.discord.chatInput({ name: 'card', subcommand: 'search', options: { query: card.name } }));
    expect(search.embeds[0]!.description).toContain(card.name.slice(0, 20));
    expect(local.app.services.cards.size).toBe(ygoprodeck.cards.length);
  });

  it('keeps the token out of logs, replies, /status, /metrics and YGOPRODeck URLs through all of it', async () => {
    await expectNoSecretLeaks(remote, [proxy, ygoprodeck.server]);
    await expectNoSecretLeaks(local, [proxy, ygoprodeck.server]);
  });
});
