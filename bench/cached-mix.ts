/**
 * The items the bench keeps in the bot's caches, and the cached interaction mix that throughput,
 * the soak, the card section and the fleet replay: autocomplete, `/card show`, `/ip lookup`,
 * `/ip time` and `/wallpaper show` on those items, from a fixed population of users. Nothing in it
 * reaches an upstream once `warm` has run.
 */
import type { FakeDiscord, InteractionExchange } from '../test/fakes/discord.js';
import { FAKE_GEO_RECORDS } from '../test/fakes/geojs.js';
import { WALLHAVEN_CATALOGUE } from '../test/fakes/wallhaven.js';
import { CARD_QUERIES } from './card-queries.js';
import { weightedPick } from './stats.js';

/** Staples by passcode, as autocomplete picks send them. */
export const CACHED_CARDS: readonly number[] = [46986414, 89631139, 14558127, 83764718, 5318639, 55144522, 44095762, 12580477, 70368879, 4031928];
/** The addresses the fake GeoJS knows. */
export const CACHED_ADDRESSES: readonly string[] = Object.keys(FAKE_GEO_RECORDS);
/** Few: warming each costs a request at Wallhaven's 1.4 s spacing. */
export const CACHED_WALLPAPERS: readonly string[] = WALLHAVEN_CATALOGUE.filter((wallpaper) => wallpaper.purity === 'sfw')
  .slice(0, 5)
  .map((wallpaper) => wallpaper.id);
/**
 * What users type into the name box: the labelled queries except old and OCG names, which the
 * bench's matcher evaluation feeds as extra names but the bot's database only has when YGOPRODeck
 * lists them as `beta_name`.
 */
export const TYPED_QUERIES: readonly string[] = CARD_QUERIES.filter((labelled) => labelled.category !== 'old-name').map((labelled) => labelled.query);

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

/**
 * The mix over the first `variety` cards, addresses and wallpapers (all of them by default). A
 * tiny run keeps one of each: warming costs an upstream request per item, at real spacing.
 */
export class CachedMix {
  readonly cards: readonly number[];
  readonly addresses: readonly string[];
  readonly wallpapers: readonly string[];

  constructor(variety = Number.POSITIVE_INFINITY) {
    this.cards = CACHED_CARDS.slice(0, variety);
    this.addresses = CACHED_ADDRESSES.slice(0, variety);
    this.wallpapers = CACHED_WALLPAPERS.slice(0, variety);
  }

  /** Starts one interaction of the mix (the `sequence`-th, for rotating through items). */
  start(discord: FakeDiscord, sequence: number, user: MixUser, random: () => number): Promise<InteractionExchange> {
    const kind = weightedPick(MIX, random);
    const address = this.addresses[sequence % this.addresses.length]!;
    switch (kind) {
      case 'autocomplete':
        return discord.autocomplete({ name: 'card', subcommand: 'show', options: { name: TYPED_QUERIES[sequence % TYPED_QUERIES.length]! }, focused: 'name', user });
      case 'card show':
        return discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(this.cards[sequence % this.cards.length]) }, user });
      case 'ip lookup':
        return discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, user });
      case 'ip time':
        return discord.chatInput({ name: 'ip', subcommand: 'time', options: { address }, user });
      case 'wallpaper show':
        return discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id: this.wallpapers[sequence % this.wallpapers.length]! }, user });
    }
  }

  /** Puts every item of the mix in the bot's caches (the first fetches may be deferred and queued). */
  async warm(discord: FakeDiscord): Promise<void> {
    const user = mixUser(0);
    const exchanges = [
      ...this.cards.map((card) => discord.chatInput({ name: 'card', subcommand: 'show', options: { name: String(card) }, user })),
      ...this.addresses.map((address) => discord.chatInput({ name: 'ip', subcommand: 'lookup', options: { addresses: address }, user })),
      ...this.wallpapers.map((id) => discord.chatInput({ name: 'wallpaper', subcommand: 'show', options: { id }, user: mixUser(1) })),
    ];
    for (const exchange of await Promise.all(exchanges)) await exchange.final(60_000);
  }

  /**
   * Sends interactions `first` … `first + count - 1` of the mix, `concurrency` at a time, from `users`
   * rotating users, each awaited to its acknowledgement; returns how many were lost (no answer).
   */
  async send(
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
          const exchange = await this.start(discord, sequence, mixUser(sequence % options.users), random);
          await exchange.callback(options.callbackTimeoutMs);
        } catch {
          lost++;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return { lost };
  }
}
