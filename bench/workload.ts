/**
 * A replayable command workload: every command and menu of the bot, in realistic proportions, with
 * popular items repeating (Zipf over cards, addresses, wallpapers, searches and users). Generated
 * from a fixed seed, so every run replays the same 10,000 actions.
 */
import { FAKE_GEO_RECORDS } from '../test/fakes/geojs.js';
import { WALLHAVEN_CATALOGUE, WALLHAVEN_TAGS } from '../test/fakes/wallhaven.js';
import type { ChatInputInput, FakeChannelName } from '../test/fakes/discord.js';
import { seededRandom, shuffled, weightedPick, zipfSampler } from './stats.js';

export interface WorkloadUser {
  id: string;
  username: string;
  /** Discord client locale; a French or German user gets card texts in their language. */
  locale: string;
}

export interface WorkloadOrigin {
  user: WorkloadUser;
  channel: FakeChannelName;
  /** The guild, when the bot is in several (see `spreadOverGuilds`); the fake's first otherwise. */
  guildId?: string;
}

/**
 * One user action. Autocomplete keystrokes ride along with the `/card show` they lead to; they are
 * interactions but not commands.
 */
export type WorkloadAction =
  | { kind: 'chat'; command: string; input: ChatInputInput; autocomplete?: string[]; pressNext?: boolean }
  | { kind: 'message'; command: string; targetContent: string; origin: WorkloadOrigin };

export interface WorkloadCard {
  id: number;
  name: string;
}

export interface Workload {
  actions: WorkloadAction[];
  /** Commands, counting each pager press as one. */
  commands: number;
  /** Autocomplete interactions sent along with them. */
  autocompletes: number;
}

export interface WorkloadOptions {
  commands: number;
  seed?: number;
  /** Distinct users; their activity is Zipf-distributed too. */
  users?: number;
}

const CARD_ZIPF = 1.0;
const ITEM_ZIPF = 1.0;
/** Flatter than items: the busiest user sends about 1 % of all commands. */
const USER_ZIPF = 0.6;
const ADDRESS_POOL = 1_500;

/** Relative frequency of each command (per 100). */
const COMMAND_MIX = [
  ['card show', 30],
  ['card search', 4],
  ['card random', 4],
  ['ip lookup', 14],
  ['ip time', 6],
  ['locate', 3],
  ['wallpaper show', 12],
  ['wallpaper search', 12],
  ['wallpaper random', 6],
  ['status', 2],
] as const;
type CommandKind = (typeof COMMAND_MIX)[number][0];

/** Share of `/wallpaper search` results whose author then presses ▶ once. */
const PRESS_NEXT_SHARE = 0.3;
/** Share of `/card show` names picked from autocomplete (sent as passcodes); the rest are typed. */
const AUTOCOMPLETE_SHARE = 0.75;

export function buildWorkload(cards: readonly WorkloadCard[], options: WorkloadOptions): Workload {
  const random = seededRandom(options.seed ?? 20250425);
  const users = makeUsers(options.users ?? 2_000, random);
  const userRank = zipfSampler(users.length, USER_ZIPF, random);
  const cardOrder = shuffled(cards, random);
  const cardRank = zipfSampler(cardOrder.length, CARD_ZIPF, random);
  const addresses = makeAddresses(random);
  const addressRank = zipfSampler(addresses.length, ITEM_ZIPF, random);
  const wallpapers = shuffled(
    WALLHAVEN_CATALOGUE.filter((wallpaper) => wallpaper.purity === 'sfw').map((wallpaper) => wallpaper.id),
    random,
  );
  const wallpaperRank = zipfSampler(wallpapers.length, ITEM_ZIPF, random);
  const searches = makeSearches(random);
  const searchRank = zipfSampler(searches.length, ITEM_ZIPF, random);
  const tags = WALLHAVEN_TAGS.map((tag) => tag.name);
  const tagRank = zipfSampler(tags.length, ITEM_ZIPF, random);

  const pickCard = () => cardOrder[cardRank()]!;
  const pickAddress = () => addresses[addressRank()]!;
  const addressList = (count: number) => Array.from({ length: count }, pickAddress).join(', ');

  const actions: WorkloadAction[] = [];
  let commandCount = 0;
  let autocompletes = 0;
  while (commandCount < options.commands) {
    const origin: WorkloadOrigin = { user: users[userRank()]!, channel: random() < 0.8 ? 'normal' : 'normalThread' };
    const base = { user: origin.user, channel: origin.channel, locale: origin.user.locale };
    const kind: CommandKind = weightedPick(COMMAND_MIX, random);
    switch (kind) {
      case 'card show': {
        const card = pickCard();
        if (random() < AUTOCOMPLETE_SHARE) {
          // Keystrokes as Discord sends them: the name as typed so far, a few letters at a time.
          const typed = card.name.toLowerCase();
          const keystrokes = [3, 6, 10].filter((length) => length < typed.length).map((length) => typed.slice(0, length));
          autocompletes += keystrokes.length;
          actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'card', subcommand: 'show', options: { name: String(card.id) } }, autocomplete: keystrokes });
        } else {
          actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'card', subcommand: 'show', options: { name: card.name.toLowerCase() } } });
        }
        break;
      }
      case 'card search': {
        const words = pickCard().name.split(/\s+/);
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'card', subcommand: 'search', options: { query: words.slice(0, 2).join(' ') } } });
        break;
      }
      case 'card random':
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'card', subcommand: 'random' } });
        break;
      case 'ip lookup': {
        const count = weightedPick([[1, 70], [2, 20], [3, 10]] as const, random);
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'ip', subcommand: 'lookup', options: { addresses: addressList(count) } } });
        break;
      }
      case 'ip time':
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'ip', subcommand: 'time', options: { address: pickAddress() } } });
        break;
      case 'locate':
        actions.push({
          kind: 'message',
          command: kind,
          targetContent: `anyone else seeing timeouts from ${pickAddress()}? traceroute dies after ${pickAddress()}`,
          origin,
        });
        break;
      case 'wallpaper show':
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'wallpaper', subcommand: 'show', options: { id: wallpapers[wallpaperRank()]! } } });
        break;
      case 'wallpaper search': {
        const pressNext = random() < PRESS_NEXT_SHARE;
        if (pressNext) commandCount++;
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'wallpaper', subcommand: 'search', options: searches[searchRank()]! }, pressNext });
        break;
      }
      case 'wallpaper random':
        actions.push({
          kind: 'chat',
          command: kind,
          input: { ...base, name: 'wallpaper', subcommand: 'random', options: random() < 0.5 ? {} : { query: tags[tagRank()]! } },
        });
        break;
      case 'status':
        actions.push({ kind: 'chat', command: kind, input: { ...base, name: 'status' } });
        break;
    }
    commandCount++;
  }
  return { actions, commands: commandCount, autocompletes };
}

/**
 * The same actions spread over several guilds, as for a sharded fleet: each user belongs to one guild
 * (by id), so a user's commands and pager presses all arrive on that guild's shard.
 */
export function spreadOverGuilds(actions: readonly WorkloadAction[], guildIds: readonly string[]): WorkloadAction[] {
  const guildOf = (user: Pick<WorkloadUser, 'id'>) => guildIds[Number(BigInt(user.id) % BigInt(guildIds.length))]!;
  return actions.map((action) =>
    action.kind === 'message'
      ? { ...action, origin: { ...action.origin, guildId: guildOf(action.origin.user) } }
      : { ...action, input: { ...action.input, ...(action.input.user?.id ? { guildId: guildOf({ id: action.input.user.id }) } : {}) } },
  );
}

function makeUsers(count: number, random: () => number): WorkloadUser[] {
  return Array.from({ length: count }, (_, index) => ({
    id: String(1_357_000_000_000_000_000n + BigInt(index)),
    username: `user${index}`,
    locale: weightedPick([['en-US', 88], ['fr', 6], ['de', 3], ['pt-BR', 3]] as const, random),
  }));
}

/** The fake's known addresses first (the most popular), then ordinary public IPv4 and IPv6 ones. */
function makeAddresses(random: () => number): string[] {
  const addresses = new Set(Object.keys(FAKE_GEO_RECORDS));
  // First octets outside private, loopback, CGNAT, link-local, documentation, benchmark and multicast space.
  const firstOctets = Array.from({ length: 223 }, (_, index) => index + 1).filter(
    (octet) => ![10, 100, 127, 169, 172, 192, 198, 203].includes(octet),
  );
  const octet = () => Math.floor(random() * 256);
  while (addresses.size < ADDRESS_POOL) {
    if (random() < 0.1) {
      addresses.add(`2a0${1 + Math.floor(random() * 9)}:${octet().toString(16)}::${octet().toString(16)}`);
    } else {
      addresses.add(`${firstOctets[Math.floor(random() * firstOctets.length)]!}.${octet()}.${octet()}.${1 + Math.floor(random() * 254)}`);
    }
  }
  const known = Object.keys(FAKE_GEO_RECORDS);
  return [...known, ...shuffled([...addresses].slice(known.length), random)];
}

/** Search option sets: tags alone, with a sorting, a ratio or a category, and no query at all. */
function makeSearches(random: () => number): Record<string, string>[] {
  const tags = WALLHAVEN_TAGS.map((tag) => tag.name);
  const searches: Record<string, string>[] = [{}, { sorting: 'toplist' }];
  for (const tag of tags) {
    searches.push({ query: tag });
    searches.push({ query: tag, sorting: 'toplist' });
    searches.push({ query: tag, ratio: '16x9' });
    searches.push({ query: tag, category: 'general' });
  }
  return shuffled(searches, random);
}
