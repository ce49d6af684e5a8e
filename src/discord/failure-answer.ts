import type { Logger } from 'pino';
import { describeFailure } from '../render/errors.js';
import type { InteractionResponder } from './interaction.js';

/**
 * Tells the user, in one short private sentence, why their interaction failed: in place of the
 * placeholder when already deferred, as a follow-up when already answered, else as the answer.
 */
export async function answerWithFailure(
  responder: InteractionResponder,
  deferral: Promise<void> | undefined,
  error: unknown,
  log: Logger,
): Promise<void> {
  const content = describeFailure(error);
  try {
    if (deferral) await deferral.catch(() => undefined);
    if (responder.deferred && !responder.replied) {
      // Already acknowledged: edit the placeholder rather than answering twice.
      await responder.editReply({ content, embeds: [], components: [], files: [] });
    } else if (responder.replied) {
      await responder.followUp({ content, ephemeral: true });
    } else {
      await responder.reply({ content, ephemeral: true });
    }
  } catch (sendError) {
    // Discord refused both the answer and this sentence (after the REST client's retries): the user sees nothing.
    log.error({ err: sendError, undelivered: content }, 'gave up delivering the answer to Discord');
  }
}
