import type { APIApplicationCommandOptionChoice } from 'discord.js';
import type { Logger } from 'pino';
import type { MessagePayload, Reply } from './reply.js';

/**
 * What a handler is given: who asked, where, with which options, and how to acknowledge. Every
 * transport (discord.js, HTTP, the terminal CLI, tests) builds these, so handlers see no transport.
 */

export interface Invoker {
  id: string;
  username: string;
  /** The user's Discord client locale, e.g. `en-US`, `fr`. */
  locale: string;
}

export interface ChannelInfo {
  id: string;
  kind: 'guild' | 'thread' | 'dm';
  /** Age-restricted ("NSFW") channel; a thread reports its parent's flag. Always false in DMs. */
  ageRestricted: boolean;
  /** The server it is in (absent in DMs and group DMs). */
  guildId?: string;
  /** A thread's parent channel, when Discord said. */
  parentId?: string;
  /** The highest wallpaper purity the server's settings allow here (a ceiling over `ageRestricted`); absent: none. */
  purityCeiling?: 'sfw' | 'sketchy' | 'nsfw';
}

/**
 * What the server, the channel and the member chose with `/settings`, as it applies to this
 * interaction (the member's own language is already in `user.locale`, the purity ceiling in `channel`).
 */
export interface PlaceSettings {
  /** The Discord locale public answers are written in. */
  publicLocale: string;
  /** Who `/ip` answers by default; null: each subcommand's own default. */
  ipAnswers: 'public' | 'private' | null;
}

/**
 * How Almanac was reached: installed by the server, or only by the invoking user to their own
 * account (it then works in servers and group DMs its bot is not a member of).
 */
export interface Installation {
  /** Where the command was used: a server, Almanac's own DM, or a group DM / DM between users. */
  context: 'guild' | 'bot_dm' | 'private_channel';
  /** The server installed Almanac (for a guild context; Discord reports it in the bot's DM too). */
  byGuild: boolean;
}

/**
 * What Discord lets Almanac do where the interaction happened (`app_permissions`). Almanac draws
 * only Unicode emoji, so the missing USE_EXTERNAL_EMOJIS of user installs costs it nothing.
 */
export interface AppPermissions {
  attachFiles: boolean;
  /** View Channel, Send Messages and Embed Links: Almanac can post an embed here on its own (subscriptions). */
  postEmbeds?: boolean;
}

/** What the invoking member may do in the server (`member.permissions`); nothing outside a server. */
export interface MemberPermissions {
  /** Manage Server: the member runs this server, and may see operator-only details in /status. */
  manageServer: boolean;
  /** Manage Channels in this channel (overwrites included, as Discord computes `member.permissions`). */
  manageChannels?: boolean;
}

/**
 * A file attached to the interaction, as Discord described it: the URL its CDN serves it from and
 * the size Discord declared (a description, not a promise: it is checked again while reading).
 */
export interface AttachmentRef {
  name: string;
  size: number;
  url: string;
}

export interface OptionValues {
  subcommand: string | null;
  getString(name: string): string | null;
  getBoolean(name: string): boolean | null;
  getInteger(name: string): number | null;
  getAttachment(name: string): AttachmentRef | null;
  /** A channel option's channel id. */
  getChannel(name: string): string | null;
}

/** The message a message menu was used on: its text and its attachments, as the interaction carries them. */
export interface TargetMessage {
  id: string;
  content: string;
  attachments: readonly AttachmentRef[];
}

/** Slash commands and context menus: acknowledged now, answered later. */
export interface DeferrableContext {
  /**
   * Acknowledges the interaction so the final reply may come up to 15 minutes later. Call it before
   * anything that may wait on an upstream or a limiter queue. Ephemerality is fixed here.
   */
  defer(options: { ephemeral: boolean }): Promise<void>;
  /**
   * Shows a short note (e.g. the expected wait in a limiter queue) in place of "thinking…" while the
   * work goes on. Defers first if needed; the final reply replaces it.
   */
  progress(note: string, options: { ephemeral: boolean }): Promise<void>;
}

interface BaseContext {
  interactionId: string;
  user: Invoker;
  channel: ChannelInfo;
  installation: Installation;
  appPermissions: AppPermissions;
  memberPermissions: MemberPermissions;
  settings: PlaceSettings;
  log: Logger;
}

export interface ChatInputContext extends BaseContext, DeferrableContext {
  options: OptionValues;
}

export interface MessageContextContext extends BaseContext, DeferrableContext {
  targetMessage: TargetMessage;
}

export interface AutocompleteContext extends BaseContext {
  options: OptionValues;
  focused: { name: string; value: string };
}

export interface ComponentContext extends BaseContext {
  customId: string;
  /** Selected values for select menus; empty for buttons. */
  values: string[];
  /** The message the component is attached to. */
  message: { id: string; createdTimestamp: number; ownerId: string | null };
  /** Acknowledges the press; the message is then edited in place by the returned update. */
  deferUpdate(): Promise<void>;
  /** Shows a short note on the message while the work goes on; the returned update replaces it. */
  progress(note: string): Promise<void>;
}

/** What a component handler wants done: edit the message it sits on, or send a new reply. */
export type ComponentResult = { update: MessagePayload } | { reply: Reply };

export type AutocompleteChoice = APIApplicationCommandOptionChoice<string>;

/** What applies where nothing was chosen with `/settings` (or no database is kept: the CLI, handler tests). */
export function settingsWithoutChoices(user: Pick<Invoker, 'locale'>): PlaceSettings {
  return { publicLocale: user.locale, ipAnswers: null };
}

/** A server install used in that server, with every permission: what the terminal CLI acts as. */
export const SERVER_INSTALLATION: Installation = { context: 'guild', byGuild: true };
export const ALL_APP_PERMISSIONS: AppPermissions = { attachFiles: true, postEmbeds: true };
/** The terminal CLI runs on the bot's host, for its operator: it sees what a server's manager sees. */
export const OPERATOR_MEMBER_PERMISSIONS: MemberPermissions = { manageServer: true };
