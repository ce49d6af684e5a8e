import type { Logger } from 'pino';
import type { AutocompleteChoice } from './context.js';
import type { ChatInputCommand, Command, MessageContextCommand } from './command.js';
import type { Reply } from './reply.js';
import { UserError } from './errors.js';
import { settingsWithoutChoices } from './context.js';
import { messagesFor } from '../i18n/messages.js';
import type { Metrics } from '../runtime/metrics.js';
import { ComponentExpiry } from './component-expiry.js';
import { answerWithFailure, type Deferral } from './failure-answer.js';
import {
  completeMessage,
  type AutocompleteInteraction,
  type ChatInputInteraction,
  type ComponentInteraction,
  type MessageCommandInteraction,
  type RoutedInteraction,
} from './routed-interaction.js';
import { recordOutcome, unredactedLines, type OutcomeEntry } from './outcome.js';
import { withWellFormedText } from './well-formed.js';
import { timingAcknowledgement } from './acknowledgement.js';

/**
 * Discord invalidates an interaction that is not acknowledged within 3 s. A handler that has not
 * answered or deferred by this point is deferred for it (ephemerally: the private side is safe).
 */
const AUTO_DEFER_AFTER_MS = 2_000;

/**
 * Routes interactions to the commands and answers them, whatever transport delivered them (the
 * gateway or the HTTP endpoint): deferral when slow, progress notes, component expiry, one central
 * error handler, and a drain on shutdown.
 */
export interface Router {
  handle(interaction: RoutedInteraction): Promise<void>;
  /** Stops taking new work and waits (at most `timeoutMs`) for interactions in flight. */
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
  readonly inFlight: number;
}

type RunsCommand = ChatInputInteraction | MessageCommandInteraction;

/** What the router itself uses of the services it hands the commands: where it logs and counts, and what `/settings` chose. */
export interface RouterServices {
  logger: Logger;
  metrics: Metrics;
  /**
   * The settings where an interaction happened: its member's language in `user.locale`, the purity
   * ceiling in `channel`, the rest in `settings`. Absent (the CLI, handler tests): nothing chosen.
   */
  settleInteraction?(where: Pick<RoutedInteraction, 'user' | 'channel'>): Promise<Required<Pick<RoutedInteraction, 'user' | 'channel' | 'settings'>>>;
}

/**
 * A router over `commands`, each handler given `app` (the app's services, of the app's own type `S`)
 * beside its context.
 */
/**
 * Records an acknowledgement's delay. Made here, not in `handle`, so that the closure keeps the
 * command's name and kind alone: a responder, and with it this closure, lives as long as its
 * message's idle-component timer (up to 14 minutes), and `handle`'s scope holds the whole interaction.
 */
function acknowledgementObserver(metrics: Metrics, command: string, kind: string): (seconds: number) => void {
  return (seconds) => metrics.interactionAcknowledgement.labels(command, kind).observe(seconds);
}

export function createRouter<S extends RouterServices>(commands: readonly Command<S>[], app: S): Router {
  const chatCommands = new Map<string, ChatInputCommand<S>>();
  const messageCommands = new Map<string, MessageContextCommand<S>>();
  const componentOwners = new Map<string, ChatInputCommand<S>>();
  for (const command of commands) {
    if (command.kind === 'chat') {
      chatCommands.set(command.data.name, command);
      if (command.componentPrefix) componentOwners.set(command.componentPrefix, command);
    } else {
      messageCommands.set(command.data.name, command);
    }
  }

  const inFlight = new Set<Promise<void>>();
  const expiry = new ComponentExpiry(app.logger);
  const answers = unredactedLines(app.logger);
  let accepting = true;

  /** The command whose components carry this custom_id's prefix (the part before the first `:`). */
  function componentOwner(customId: string): ChatInputCommand<S> | undefined {
    return componentOwners.get(customId.split(':', 1)[0] ?? '');
  }

  function dispatch(interaction: RoutedInteraction): Promise<void> {
    switch (interaction.kind) {
      case 'chat':
        return runChatInput(interaction);
      case 'message':
        return runMessageContext(interaction);
      case 'autocomplete':
        return runAutocomplete(interaction);
      case 'component':
        return runComponent(interaction);
    }
  }

  /**
   * What every command's context holds. Its `log` is a getter, the interaction's logger made on
   * first use: add to this object (Object.assign), never spread it, or the spread makes the logger.
   */
  function baseContext(interaction: RoutedInteraction, log: () => Logger) {
    return {
      interactionId: interaction.id,
      user: interaction.user,
      channel: interaction.channel,
      installation: interaction.installation,
      appPermissions: interaction.appPermissions,
      memberPermissions: interaction.memberPermissions,
      settings: interaction.settings ?? settingsWithoutChoices(interaction.user),
      get log() {
        return log();
      },
    };
  }

  /** `ip lookup` for a subcommand, `status` otherwise: the name logs and metrics use. */
  function qualifiedName(interaction: ChatInputInteraction | AutocompleteInteraction): string {
    const subcommand = interaction.options.subcommand;
    return subcommand ? `${interaction.commandName} ${subcommand}` : interaction.commandName;
  }

  /** What logs and metrics name the interaction by; in gateway mode, with the shard it came on. */
  function outcomeEntry(interaction: RoutedInteraction, command: string, kind: string): OutcomeEntry {
    const shard = interaction.shardId === undefined ? {} : { shardId: interaction.shardId };
    return { interactionId: interaction.id, command, kind, ...shard, started: performance.now() };
  }

  /**
   * The interaction's logger, every line it writes naming the interaction, made on first use: most
   * interactions write no line but their outcome's (which goes through `answers`), and a pino child
   * per interaction was a cost of its own.
   */
  function interactionLogger(entry: OutcomeEntry): () => Logger {
    let log: Logger | undefined;
    return () => {
      if (!log) {
        const { started: _started, ...bindings } = entry;
        log = app.logger.child(bindings);
      }
      return log;
    };
  }

  /** Shared by slash commands and context menus: defer bookkeeping, reply, central error handling. */
  async function runCommand(
    interaction: RunsCommand,
    commandName: string,
    execute: (
      defer: (options: { ephemeral: boolean }) => Promise<void>,
      progress: (note: string, options: { ephemeral: boolean }) => Promise<void>,
      log: () => Logger,
    ) => Promise<Reply>,
  ): Promise<void> {
    const entry = outcomeEntry(interaction, commandName, interaction.kind);
    const { responder } = interaction;
    const log = interactionLogger(entry);
    let deferral: Deferral | undefined;
    const defer = (options: { ephemeral: boolean }) =>
      (deferral ??= { promise: responder.deferReply(options), placeholder: options.ephemeral ? 'private' : 'public' }).promise;
    const progress = async (note: string, options: { ephemeral: boolean }) => {
      await defer(options);
      await responder.editReply({ content: note });
    };
    const autoDefer = setTimeout(() => {
      if (!responder.replied) defer({ ephemeral: true }).catch((error: unknown) => log().warn({ err: error }, 'auto-defer failed'));
    }, AUTO_DEFER_AFTER_MS);
    try {
      if (!accepting) throw new UserError((t) => t.errors.shuttingDown);
      const reply = await execute(defer, progress, log);
      clearTimeout(autoDefer);
      if (deferral) {
        await deferral.promise;
        await responder.editReply(completeMessage(reply));
      } else {
        await responder.reply(reply);
      }
      expiry.schedule(interaction.id, reply, (edit) => responder.editReply(edit));
      // The answer is out; its fuller version replaces it when ready (within the token's 15 minutes).
      reply.completion
        ?.then((completed) => responder.editReply(completeMessage(completed)))
        .catch((error: unknown) => log().warn({ err: error }, 'could not complete the reply'));
      recordOutcome(app.metrics, { interaction: log, answers }, entry);
    } catch (error) {
      clearTimeout(autoDefer);
      recordOutcome(app.metrics, { interaction: log, answers }, entry, error);
      await answerWithFailure(responder, messagesFor(interaction.user.locale), deferral, error, log());
    }
  }

  async function runChatInput(interaction: ChatInputInteraction): Promise<void> {
    const command = chatCommands.get(interaction.commandName);
    await runCommand(interaction, qualifiedName(interaction), (defer, progress, log) => {
      if (!command) throw new UserError((t) => t.errors.commandGone);
      return command.execute(Object.assign(baseContext(interaction, log), { options: interaction.options, defer, progress }), app);
    });
  }

  async function runMessageContext(interaction: MessageCommandInteraction): Promise<void> {
    const command = messageCommands.get(interaction.commandName);
    await runCommand(interaction, interaction.commandName, (defer, progress, log) => {
      if (!command) throw new UserError((t) => t.errors.commandGone);
      return command.execute(Object.assign(baseContext(interaction, log), { targetMessage: interaction.targetMessage, defer, progress }), app);
    });
  }

  async function runAutocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const name = qualifiedName(interaction);
    const entry = outcomeEntry(interaction, name, 'autocomplete');
    const command = chatCommands.get(interaction.commandName);
    const log = interactionLogger(entry);
    let choices: AutocompleteChoice[] = [];
    let failure: unknown;
    try {
      if (!interaction.focused) throw new TypeError('autocomplete without a focused option');
      if (accepting && command?.autocomplete) {
        choices = await command.autocomplete(
          Object.assign(baseContext(interaction, log), { options: interaction.options, focused: interaction.focused }),
          app,
        );
      }
    } catch (error) {
      failure = error;
    }
    recordOutcome(app.metrics, { interaction: log, answers }, entry, failure);
    try {
      // Autocomplete cannot be deferred: a failure still answers, with no suggestions.
      await interaction.responder.respond(choices.slice(0, 25));
    } catch (error) {
      log().warn({ err: error }, 'could not deliver autocomplete choices');
    }
  }

  async function runComponent(interaction: ComponentInteraction): Promise<void> {
    const command = componentOwner(interaction.customId);
    const name = command ? `${command.data.name} component` : 'component';
    const entry = outcomeEntry(interaction, name, 'component');
    const { responder } = interaction;
    const log = interactionLogger(entry);
    let deferral: Deferral | undefined;
    const deferUpdate = () => (deferral ??= { promise: responder.deferUpdate(), placeholder: 'update' }).promise;
    try {
      if (!accepting) throw new UserError((t) => t.errors.shuttingDown);
      if (!command?.handleComponent) throw new UserError((t) => t.errors.buttonsExpired);
      const { rootId, ...message } = interaction.message;
      const result = await command.handleComponent(
        Object.assign(baseContext(interaction, log), {
          customId: interaction.customId,
          values: interaction.values,
          message,
          deferUpdate,
          progress: async (note: string) => {
            await deferUpdate();
            await responder.editReply({ content: note });
          },
        }),
        app,
      );
      if ('update' in result) {
        if (deferral) {
          await deferral.promise;
          await responder.editReply(completeMessage(result.update));
        } else {
          await responder.update(result.update);
        }
        // The message belongs to the interaction that created it: a press restarts its idle clock.
        expiry.schedule(rootId, result.update, (edit) => responder.editReply(edit));
      } else if (deferral) {
        await deferral.promise;
        const followUp = await responder.followUp(result.reply);
        expiry.schedule(followUp.id, result.reply, (edit) => responder.editFollowUp(followUp.id, edit));
      } else {
        await responder.reply(result.reply);
        expiry.schedule(interaction.id, result.reply, (edit) => responder.editReply(edit));
      }
      recordOutcome(app.metrics, { interaction: log, answers }, entry);
    } catch (error) {
      recordOutcome(app.metrics, { interaction: log, answers }, entry, error);
      await answerWithFailure(responder, messagesFor(interaction.user.locale), deferral, error, log());
    }
  }

  /** The interaction with what `/settings` chose where it happened; a database that fails to answer costs the choices, never the answer. */
  async function settled(interaction: RoutedInteraction): Promise<RoutedInteraction> {
    if (!app.settleInteraction) return interaction;
    try {
      return { ...interaction, ...(await app.settleInteraction(interaction)) };
    } catch (error) {
      app.logger.warn({ err: error, interactionId: interaction.id }, 'settings unreadable; answering as if nothing was chosen');
      return interaction;
    }
  }

  return {
    async handle(interaction) {
      const receivedAt = performance.now();
      const command =
        interaction.kind === 'component' ? (componentOwner(interaction.customId)?.data.name ?? 'component') : interaction.commandName;
      const timed = timingAcknowledgement(interaction, receivedAt, acknowledgementObserver(app.metrics, command, interaction.kind));
      const work = settled(withWellFormedText(timed))
        .then(dispatch)
        .catch((error: unknown) =>
        app.logger.error({ err: error, interactionId: interaction.id }, 'interaction handler crashed'),
      );
      inFlight.add(work);
      try {
        await work;
      } finally {
        inFlight.delete(work);
      }
    },
    async drain(timeoutMs) {
      accepting = false;
      expiry.clear();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
      clearTimeout(timer);
      return { unfinished: inFlight.size };
    },
    get inFlight() {
      return inFlight.size;
    },
  };
}
