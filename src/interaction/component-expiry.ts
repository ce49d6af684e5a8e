import { ComponentType } from 'discord.js';
import type { Logger } from 'pino';
import type { ActionRow, MessagePayload } from './reply.js';

/** An interaction token allows edits for 15 minutes; an expiry later than that cannot be applied. */
const MAX_EXPIRY_MS = 14 * 60_000;

/** The same rows with every button and menu disabled; link buttons keep working. */
function disableInteractiveComponents(rows: readonly ActionRow[]): ActionRow[] {
  return rows.map((row) => ({
    ...row,
    components: row.components.map((component) =>
      component.type === ComponentType.Button && 'url' in component ? component : { ...component, disabled: true },
    ),
  }));
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

  schedule(rootId: string, payload: MessagePayload, edit: (components: ActionRow[]) => Promise<unknown>): void {
    this.cancel(rootId);
    const after = payload.disableComponentsAfterMs;
    const rows = payload.components ?? [];
    if (after === undefined || rows.length === 0) return;
    if (this.timers.size >= this.maxTimers) this.cancel(this.timers.keys().next().value!);
    const timer = setTimeout(() => {
      this.timers.delete(rootId);
      edit(disableInteractiveComponents(rows)).catch((error: unknown) =>
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
