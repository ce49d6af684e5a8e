import type { AutocompleteChoice } from './context.js';
import type { MessagePayload, Reply } from './reply.js';
import type { InteractionResponder, MessageEdit, RoutedInteraction } from './routed-interaction.js';

/**
 * `interaction` with a responder that reports, once, how many seconds after `receivedAt`
 * (`performance.now()`) its acknowledgement reached Discord: the first reply, deferral, update or
 * autocomplete answer. Discord drops an interaction not acknowledged within 3 s, so this, not the
 * time to the final answer, is what an operator alerts on. Transport-neutral: both the gateway and
 * the HTTP endpoint go through it.
 */
export function timingAcknowledgement<T extends RoutedInteraction>(interaction: T, receivedAt: number, observe: (seconds: number) => void): T {
  return { ...interaction, responder: new TimingResponder(interaction.responder, receivedAt, observe) };
}

/**
 * The timing responder of `timingAcknowledgement`: a class rather than an object of closures, as
 * one is made for every interaction.
 */
class TimingResponder implements InteractionResponder {
  private acknowledged = false;

  constructor(
    private readonly responder: InteractionResponder,
    private readonly receivedAt: number,
    private readonly observe: (seconds: number) => void,
  ) {}

  get deferred(): boolean {
    return this.responder.deferred;
  }

  get replied(): boolean {
    return this.responder.replied;
  }

  async reply(reply: Reply): Promise<void> {
    return this.acknowledging(this.responder.reply(reply));
  }

  async deferReply(options: { ephemeral: boolean }): Promise<void> {
    return this.acknowledging(this.responder.deferReply(options));
  }

  async deferUpdate(): Promise<void> {
    return this.acknowledging(this.responder.deferUpdate());
  }

  async update(payload: MessagePayload): Promise<void> {
    return this.acknowledging(this.responder.update(payload));
  }

  async respond(choices: AutocompleteChoice[]): Promise<void> {
    return this.acknowledging(this.responder.respond(choices));
  }

  editReply(edit: MessageEdit): Promise<void> {
    return this.responder.editReply(edit);
  }

  deleteReply(): Promise<void> {
    return this.responder.deleteReply();
  }

  followUp(reply: Reply): Promise<{ id: string }> {
    return this.responder.followUp(reply);
  }

  editFollowUp(messageId: string, edit: MessageEdit): Promise<void> {
    return this.responder.editFollowUp(messageId, edit);
  }

  /** Waits for `sent`; the first acknowledgement to be sent is observed once it has reached Discord. */
  private async acknowledging(sent: Promise<void>): Promise<void> {
    const first = !this.acknowledged;
    this.acknowledged = true;
    await sent;
    if (first) this.observe((performance.now() - this.receivedAt) / 1000);
  }
}
