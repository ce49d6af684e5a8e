import type { Logger } from 'pino';
import type { Catalogue } from '../i18n/catalogue.js';
import { describeFailure } from '../render/errors.js';
import type { InteractionResponder } from './routed-interaction.js';

/**
 * How the interaction was deferred, if it was: `private` (an ephemeral "thinking…"), `public` (a
 * placeholder everyone in the channel sees) or `update` (the message a component sits on).
 */
export type Deferral = { promise: Promise<void>; placeholder: 'private' | 'public' | 'update' };

/**
 * Tells the user, in one short private sentence in their language, why their interaction failed: in place of a
 * private placeholder; as a private follow-up once the interaction was answered, deferred publicly
 * (the public placeholder is deleted first: a refusal is nobody else's business) or deferred as an
 * update (the message stays as it was); else as the answer.
 */
export async function answerWithFailure(
  responder: InteractionResponder,
  messages: Catalogue,
  deferral: Deferral | undefined,
  error: unknown,
  log: Logger,
): Promise<void> {
  const content = describeFailure(error, messages);
  try {
    if (deferral) await deferral.promise.catch(() => undefined);
    const placeholder = deferral?.placeholder ?? 'private';
    if (responder.deferred && !responder.replied && placeholder === 'private') {
      // Acknowledged privately: edit the placeholder rather than answering twice.
      await responder.editReply({ content, embeds: [], components: [], files: [] });
    } else if (responder.deferred || responder.replied) {
      if (!responder.replied && placeholder === 'public') {
        await responder.deleteReply().catch((deleteError: unknown) => log.warn({ err: deleteError }, 'could not delete the public placeholder'));
      }
      await responder.followUp({ content, ephemeral: true });
    } else {
      await responder.reply({ content, ephemeral: true });
    }
  } catch (sendError) {
    // Discord refused both the answer and this sentence (after the REST client's retries): the user sees nothing.
    log.error({ err: sendError, undelivered: content }, 'gave up delivering the answer to Discord');
  }
}
