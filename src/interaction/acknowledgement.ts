import type { InteractionResponder, RoutedInteraction } from './routed-interaction.js';

/**
 * `interaction` with a responder that reports, once, how many seconds after `receivedAt`
 * (`performance.now()`) its acknowledgement reached Discord: the first reply, deferral, update or
 * autocomplete answer. Discord drops an interaction not acknowledged within 3 s, so this, not the
 * time to the final answer, is what an operator alerts on. Transport-neutral: both the gateway and
 * the HTTP endpoint go through it.
 */
export function timingAcknowledgement<T extends RoutedInteraction>(interaction: T, receivedAt: number, observe: (seconds: number) => void): T {
  const responder = interaction.responder;
  let acknowledged = false;
  const acknowledging =
    <A extends unknown[]>(send: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      const first = !acknowledged;
      acknowledged = true;
      await send(...args);
      if (first) observe((performance.now() - receivedAt) / 1000);
    };
  const timed: InteractionResponder = {
    get deferred() {
      return responder.deferred;
    },
    get replied() {
      return responder.replied;
    },
    reply: acknowledging((reply) => responder.reply(reply)),
    deferReply: acknowledging((options) => responder.deferReply(options)),
    deferUpdate: acknowledging(() => responder.deferUpdate()),
    update: acknowledging((payload) => responder.update(payload)),
    respond: acknowledging((choices) => responder.respond(choices)),
    editReply: (edit) => responder.editReply(edit),
    deleteReply: () => responder.deleteReply(),
    followUp: (reply) => responder.followUp(reply),
    editFollowUp: (messageId, edit) => responder.editFollowUp(messageId, edit),
  };
  return { ...interaction, responder: timed };
}
