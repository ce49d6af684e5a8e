/**
 * The cached interaction mix that throughput and the soak replay: autocomplete, `/card show`,
 * `/ip lookup`, `/ip time` and `/wallpaper show` on items already in the bot's caches, from a
 * fixed population of users. Nothing in it reaches an upstream once `warmCachedMix` has run.
 */
import type { FakeDiscord, InteractionExchange } from '../test/fakes/discord.js';
import { FAKE_GEO_RECORDS } from '../test/fakes/geojs.js';
import { WALLHAVEN_CATALOGUE } from '../test/fakes/wallhaven.js';
import { CARD_QUERIES } from './card-queries.js';
import { weightedPick } from './stats.js';

/** Staples by passcode, as autocomplete picks send them. */
const CARDS = [46986414, 89631139, 14558127, 83764718, 5318639, 55144522, 44095762, 12580477, 70368879, 4031928];
const ADDRESSES = Object.keys(FAKE_GEO_RECORDS);
const WALLPAPERS = WALLHAVEN_CATALOGUE.filter((wallpaper) => wallpaper.purity === 'sfw')
  .slice(0, 5)
  .map((wallpaper) => wallpaper.id);

/** Labelled queries without old and OCG names (see e2e-latency.ts). */
const TYPED_QUERIES = CARD_QUERIES.filter((labelled) => labelled.category !== 'old-name').map((labelled) => labelled.query);

type MixKind = 'autocomplete' | 'card show' | 'ip lookup' | 'ip time' | 'wallpaper show';
const MIX: readonly (readonly [MixKind, number])[] = [
  ['autocomplete', 40],
  ['card show', 25],
  ['ip lookup', 15],
  ['ip time', 5],
  ['wallpaper show', 15],
];

export interface MixUser {
  id: string;
  username: string;
}

export function mixUser(index: number): MixUser {
  return { id: String(1_359_000_000_000_000_000n + BigInt(index)), username: `soak${index}` };
}

/** Starts one interaction of the mix (the `sequence`-th, for rotating through items). */
export function startCachedInteraction(discord: FakeDiscord, sequence: number, user: MixUser, random: () => number): Promise<InteractionExchange> {
  const kind = weightedPick(MIX, random);
  switch (kind) {
    case 'autocomplete':
      return discord.autocomplete({
        name: 'card',
        subcommand: 'show',
        options: { name: TYPED_QUERIES[sequence % TYPED_QUERIES.length]! },
        focused: 'name',
        user,
      });
    case 'card show':
      return discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(CARDS[sequence % CARDS.length]) }, user });
    case 'ip lookup':
      return discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: ADDRESSES[sequence % ADDRESSES.length]! }, user });
    case 'ip time':
      return discord.chatInput({ name: 'ip', subcommand: 'time', options: { address: ADDRESSES[sequence % ADDRESSES.length]! }, user });
    case 'wallpaper show':
      return discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: WALLPAPERS[sequence % WALLPAPERS.length]! }, user });
  }
}

/** Puts every item of the mix in the bot's caches (the first fetches may be deferred and queued). */
export async function warmCachedMix(discord: FakeDiscord): Promise<void> {
  const user = mixUser(0);
  const exchanges = [
    ...CARDS.map((card) => discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(card) }, user })),
    ...ADDRESSES.map((address) => discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, user })),
    ...WALLPAPERS.map((id) => discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id }, user: mixUser(1) })),
  ];
  for (const exchange of await Promise.all(exchanges)) await exchange.final(60_000);
}

/**
 * Sends interactions `first` … `first + count - 1` of the mix, `concurrency` at a time, from `users`
 * rotating users, each awaited to its acknowledgement; returns how many were lost (no answer).
 */
export async function sendCachedInteractions(
  discord: FakeDiscord,
  range: { first: number; count: number },
  random: () => number,
  options: { concurrency: number; users: number; callbackTimeoutMs: number },
): Promise<{ lost: number }> {
  let next = range.first;
  let lost = 0;
  const end = range.first + range.count;
  const worker = async () => {
    while (next < end) {
      const sequence = next++;
      try {
        const exchange = await startCachedInteraction(discord, sequence, mixUser(sequence % options.users), random);
        await exchange.callback(options.callbackTimeoutMs);
      } catch {
        lost++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { lost };
}
