import { ComponentType } from 'discord.js';
import type { Logger } from 'pino';
import type { MessagePayload } from './reply.js';
import type { MessageEdit } from './routed-interaction.js';

/** An interaction token allows edits for 15 minutes; an expiry later than that cannot be applied. */
const MAX_EXPIRY_MS = 14 * 60_000;

const INTERACTIVE: readonly number[] = [
  ComponentType.Button,
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
];

/**
 * The same components with every button and menu disabled, however deep (a Components V2
 * container holds rows, a section a button); link buttons keep working.
 */
function disableInteractive<T extends { type: number }>(component: T): T {
  if (INTERACTIVE.includes(component.type)) return 'url' in component ? component : { ...component, disabled: true };
  const copy: Record<string, unknown> = { ...component };
  if (Array.isArray(copy.components)) copy.components = (copy.components as { type: number }[]).map(disableInteractive);
  if (typeof copy.accessory === 'object' && copy.accessory !== null) copy.accessory = disableInteractive(copy.accessory as { type: number });
  return copy as T;
}

/** The edit disabling a message's components: its layout's, or its rows'. */
function disablingEdit(payload: MessagePayload): MessageEdit | undefined {
  if (payload.layout !== undefined) return payload.layout.length === 0 ? undefined : { layout: payload.layout.map(disableInteractive) };
  const rows = payload.components ?? [];
  return rows.length === 0 ? undefined : { components: rows.map(disableInteractive) };
}

/**
 * Timers that disable a message's components once it has been idle. Keyed by the message's root
 * interaction, so a press on the message replaces the pending timer rather than adding one. Bounded:
 * past `maxTimers` the oldest is dropped (its buttons then expire on their next press instead).
 */
export class ComponentExpiry {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly log: Logger,
    private readonly maxTimers = 2_000,
  ) {}

  schedule(rootId: string, payload: MessagePayload, edit: (edit: MessageEdit) => Promise<unknown>): void {
    this.cancel(rootId);
    const after = payload.disableComponentsAfterMs;
    const disabling = disablingEdit(payload);
    if (after === undefined || disabling === undefined) return;
    if (this.timers.size >= this.maxTimers) this.cancel(this.timers.keys().next().value!);
    const timer = setTimeout(() => {
      this.timers.delete(rootId);
      edit(disabling).catch((error: unknown) =>
        this.log.debug({ err: error, rootId }, 'could not disable idle components'),
      );
    }, Math.min(after, MAX_EXPIRY_MS));
    timer.unref();
    this.timers.set(rootId, timer);
  }

  cancel(rootId: string): void {
    clearTimeout(this.timers.get(rootId));
    this.timers.delete(rootId);
  }

  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
