import pino from 'pino';
import { vi } from 'vitest';
import type { AppServices } from '../../src/app/services.js';
import type { Card } from '../../src/cards/card.js';
import { normaliseCard } from '../../src/cards/normalise-card.js';
import {
  ALL_APP_PERMISSIONS,
  SERVER_INSTALLATION,
  type AttachmentRef,
  type AutocompleteContext,
  type ChannelInfo,
  type ChatInputContext,
  type ComponentContext,
  type ComponentResult,
  type Invoker,
  type MessageContextContext,
  type OptionValues,
  type PlaceSettings,
  settingsWithoutChoices,
} from '../../src/interaction/context.js';
import type { MessagePayload } from '../../src/interaction/reply.js';
import { loadCardDump } from './card-dump.js';

/**
 * Contexts a command handler is given, built the way the router builds them, for tests that call a
 * handler directly with stubbed services: who asks (`USER`), where (`GUILD_CHANNEL`), with which
 * options, and spies on how it acknowledges.
 */

export const USER: Invoker = { id: '42', username: 'owner', locale: 'en-US' };
export const GUILD_CHANNEL: ChannelInfo = { id: 'c1', kind: 'guild', ageRestricted: false };
const log = pino({ level: 'silent' });

type OptionValue = string | number | boolean | AttachmentRef;

function base(overrides: { user?: Partial<Invoker>; channel?: ChannelInfo; attachFiles?: boolean; manageServer?: boolean; settings?: Partial<PlaceSettings> }) {
  const user = { ...USER, ...overrides.user };
  return {
    interactionId: 'i1',
    user,
    settings: { ...settingsWithoutChoices(user), ...overrides.settings },
    channel: overrides.channel ?? GUILD_CHANNEL,
    installation: SERVER_INSTALLATION,
    appPermissions: overrides.attachFiles === false ? { attachFiles: false } : ALL_APP_PERMISSIONS,
    memberPermissions: { manageServer: overrides.manageServer ?? false },
    log,
  };
}

export function optionValues(subcommand: string | null, values: Record<string, OptionValue> = {}): OptionValues {
  const typed = <T>(name: string, type: string): T | null => (typeof values[name] === type ? (values[name] as T) : null);
  return {
    subcommand,
    getString: (name) => typed<string>(name, 'string'),
    getBoolean: (name) => typed<boolean>(name, 'boolean'),
    getInteger: (name) => typed<number>(name, 'number'),
    getAttachment: (name) => typed<AttachmentRef>(name, 'object'),
    getChannel: (name) => typed<string>(name, 'string'),
  };
}

type ContextOverrides = Parameters<typeof base>[0];

/** A slash command's context, with spies on `defer` and `progress`. */
export function chatContext(subcommand: string | null, values: Record<string, OptionValue> = {}, overrides: ContextOverrides = {}) {
  const defer = vi.fn(async (_options: { ephemeral: boolean }) => undefined);
  const progress = vi.fn(async (_note: string, _options: { ephemeral: boolean }) => undefined);
  const ctx: ChatInputContext = { ...base(overrides), options: optionValues(subcommand, values), defer, progress };
  return { ctx, defer, progress };
}

/** A message menu's context, on a message with `content` and `attachments`. */
export function messageContext(content: string, attachments: AttachmentRef[] = [], overrides: ContextOverrides = {}) {
  const defer = vi.fn(async (_options: { ephemeral: boolean }) => undefined);
  const progress = vi.fn(async (_note: string, _options: { ephemeral: boolean }) => undefined);
  const ctx: MessageContextContext = { ...base(overrides), targetMessage: { id: 'm0', content, attachments }, defer, progress };
  return { ctx, defer, progress };
}

/** A press of `customId` (or a pick of `values`) on a message run by `ownerId`. */
export function componentContext(customId: string, options: { values?: string[]; ownerId?: string | null } & ContextOverrides = {}): ComponentContext {
  return {
    ...base(options),
    interactionId: 'i2',
    customId,
    values: options.values ?? [],
    message: { id: 'm1', createdTimestamp: 0, ownerId: options.ownerId === undefined ? USER.id : options.ownerId },
    deferUpdate: vi.fn(async () => undefined),
    progress: vi.fn(async () => undefined),
  };
}

export function autocompleteContext(subcommand: string | null, focused: { name: string; value: string }, values: Record<string, OptionValue> = {}, overrides: ContextOverrides = {}): AutocompleteContext {
  return { ...base(overrides), options: optionValues(subcommand, values), focused };
}

/** Services with only what a test gives (and a fixed clock, free member shares): a handler touching anything else fails loudly. */
export function stubServices(services: Record<string, unknown>, now = Date.UTC(2026, 5, 1, 12)): AppServices {
  return {
    clock: { now: () => new Date(now) },
    // Shares are tested end to end (cooldown.test.ts, fair-share.test.ts): here every request is free.
    memberShares: { spenderFor: vi.fn(() => ({})) },
    ...services,
  } as unknown as AppServices;
}

/** A card of the 2025-04-25 dump, as the card service holds it. */
export function dumpCard(id: number): Card {
  const raw = loadCardDump().find((card) => card.id === id);
  if (raw === undefined) throw new Error(`no card ${id} in the dump`);
  const result = normaliseCard(raw as Parameters<typeof normaliseCard>[0]);
  if (!result.ok) throw new Error(result.problem);
  return result.card;
}

/** The message a component updates, or a failure naming what came instead. */
export function updated(result: ComponentResult): MessagePayload {
  if (!('update' in result)) throw new Error(`expected an update, got ${JSON.stringify(result)}`);
  return result.update;
}
