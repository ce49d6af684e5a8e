import type {
  AutocompleteInteraction,
  BaseInteraction,
  ChatInputCommandInteraction,
  Interaction,
  MessageComponentInteraction,
  MessageContextMenuCommandInteraction,
} from 'discord.js';
import { MessageFlags, ShardClientUtil } from 'discord.js';
import type { Logger } from 'pino';
import type { ChatInputCommand, Command, MessageContextCommand, Reply } from '../command.js';
import { UserError } from '../errors.js';
import { describeFailure } from '../render/errors.js';
import type { AppServices } from '../services/index.js';
import { UpstreamError } from '../services/upstream-error.js';
import { ComponentExpiry } from './component-expiry.js';
import { channelOf, invokerOf, optionsOf } from './context.js';
import { toMessageOptions, toReplyOptions } from './payload.js';

/**
 * Discord invalidates an interaction that is not acknowledged within 3 s. A handler that has not
 * answered or deferred by this point is deferred for it (ephemerally: the private side is safe).
 */
export const AUTO_DEFER_AFTER_MS = 2_000;

export const SHUTTING_DOWN_MESSAGE = 'Almanac is restarting; please try again in a few seconds.';

type Outcome = 'ok' | 'user_error' | 'upstream_error' | 'error';

function outcomeOf(error: unknown): Outcome {
  if (error instanceof UserError) return 'user_error';
  if (error instanceof UpstreamError) return 'upstream_error';
  return 'error';
}

export interface Router {
  handle(interaction: Interaction): Promise<void>;
  /** Stops taking new work and waits (at most `timeoutMs`) for interactions in flight. */
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
  readonly inFlight: number;
}

export function createRouter(commands: readonly Command[], app: AppServices): Router {
  const chatCommands = new Map<string, ChatInputCommand>();
  const messageCommands = new Map<string, MessageContextCommand>();
  const componentOwners = new Map<string, ChatInputCommand>();
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
  let accepting = true;

  async function dispatch(interaction: Interaction): Promise<void> {
    if (interaction.isChatInputCommand()) return runChatInput(interaction);
    if (interaction.isMessageContextMenuCommand()) return runMessageContext(interaction);
    if (interaction.isAutocomplete()) return runAutocomplete(interaction);
    if (interaction.isMessageComponent()) return runComponent(interaction);
  }

  function baseContext(interaction: BaseInteraction, log: Logger) {
    return { interactionId: interaction.id, user: invokerOf(interaction), channel: channelOf(interaction), log };
  }

  /** `ip lookup` for a subcommand, `status` otherwise: the name logs and metrics use. */
  function qualifiedName(interaction: ChatInputCommandInteraction | AutocompleteInteraction): string {
    const subcommand = interaction.options.getSubcommand(false);
    return subcommand ? `${interaction.commandName} ${subcommand}` : interaction.commandName;
  }

  /** Each line names the gateway shard the interaction came on: Discord's rule, DMs on shard 0. */
  function interactionLogger(interaction: BaseInteraction, command: string, kind: string): Logger {
    const { guildId } = interaction;
    const shardId = guildId ? ShardClientUtil.shardIdForGuildId(guildId, interaction.client.options.shardCount ?? 1) : 0;
    return app.logger.child({ interactionId: interaction.id, command, kind, shardId });
  }

  function finish(log: Logger, command: string, kind: string, started: number, error?: unknown): void {
    const latencyMs = Math.round(performance.now() - started);
    const outcome: Outcome = error === undefined ? 'ok' : outcomeOf(error);
    app.metrics.interactions.labels(command, kind, outcome).inc();
    app.metrics.interactionLatency.labels(command, kind).observe(latencyMs / 1000);
    if (outcome === 'error') log.error({ err: error, outcome, latencyMs }, 'interaction failed');
    else if (error !== undefined) log.info({ outcome, latencyMs, reason: (error as Error).message }, 'interaction refused');
    else log.info({ outcome, latencyMs }, 'interaction answered');
  }

  /** Shared by slash commands and context menus: defer bookkeeping, reply, central error handling. */
  async function runCommand(
    interaction: ChatInputCommandInteraction | MessageContextMenuCommandInteraction,
    commandName: string,
    kind: string,
    execute: (
      defer: (options: { ephemeral: boolean }) => Promise<void>,
      progress: (note: string, options: { ephemeral: boolean }) => Promise<void>,
      log: Logger,
    ) => Promise<Reply>,
  ): Promise<void> {
    const started = performance.now();
    const log = interactionLogger(interaction, commandName, kind);
    let deferral: Promise<void> | undefined;
    const defer = (options: { ephemeral: boolean }) => {
      deferral ??= interaction
        .deferReply(options.ephemeral ? { flags: MessageFlags.Ephemeral } : {})
        .then(() => undefined);
      return deferral;
    };
    const progress = async (note: string, options: { ephemeral: boolean }) => {
      await defer(options);
      await interaction.editReply({ content: note, allowedMentions: { parse: [] } });
    };
    const autoDefer = setTimeout(() => {
      if (!interaction.replied) defer({ ephemeral: true }).catch((error: unknown) => log.warn({ err: error }, 'auto-defer failed'));
    }, AUTO_DEFER_AFTER_MS);
    try {
      if (!accepting) throw new UserError(SHUTTING_DOWN_MESSAGE);
      const reply = await execute(defer, progress, log);
      clearTimeout(autoDefer);
      if (deferral) {
        await deferral;
        await interaction.editReply(toMessageOptions(reply));
      } else {
        await interaction.reply(toReplyOptions(reply));
      }
      expiry.schedule(interaction.id, reply, (components) => interaction.editReply({ components }));
      finish(log, commandName, kind, started);
    } catch (error) {
      clearTimeout(autoDefer);
      finish(log, commandName, kind, started, error);
      await answerWithFailure(interaction, deferral, error, log);
    }
  }

  async function answerWithFailure(
    interaction: ChatInputCommandInteraction | MessageContextMenuCommandInteraction | MessageComponentInteraction,
    deferral: Promise<void> | undefined,
    error: unknown,
    log: Logger,
  ): Promise<void> {
    const content = describeFailure(error);
    try {
      if (deferral) await deferral.catch(() => undefined);
      if (interaction.deferred && !interaction.replied) {
        // Already acknowledged: edit the placeholder rather than answering twice.
        await interaction.editReply({ content, embeds: [], components: [], files: [], allowedMentions: { parse: [] } });
      } else if (interaction.replied) {
        await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
      } else {
        await interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
      }
    } catch (sendError) {
      // Discord refused both the answer and this sentence (after discord.js's own retries): the user sees nothing.
      log.error({ err: sendError, undelivered: content }, 'gave up delivering the answer to Discord');
    }
  }

  async function runChatInput(interaction: ChatInputCommandInteraction): Promise<void> {
    const command = chatCommands.get(interaction.commandName);
    const name = qualifiedName(interaction);
    await runCommand(interaction, name, 'chat', (defer, progress, log) => {
      if (!command) throw new UserError('That command is not available any more.');
      return command.execute(
        {
          ...baseContext(interaction, log),
          options: optionsOf(interaction.options),
          defer,
          progress,
        },
        app,
      );
    });
  }

  async function runMessageContext(interaction: MessageContextMenuCommandInteraction): Promise<void> {
    const command = messageCommands.get(interaction.commandName);
    await runCommand(interaction, interaction.commandName, 'message', (defer, progress, log) => {
      if (!command) throw new UserError('That command is not available any more.');
      return command.execute(
        {
          ...baseContext(interaction, log),
          targetMessage: { id: interaction.targetMessage.id, content: interaction.targetMessage.content },
          defer,
          progress,
        },
        app,
      );
    });
  }

  async function runAutocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const started = performance.now();
    const command = chatCommands.get(interaction.commandName);
    const name = qualifiedName(interaction);
    const log = interactionLogger(interaction, name, 'autocomplete');
    let choices: Awaited<ReturnType<NonNullable<ChatInputCommand['autocomplete']>>> = [];
    let failure: unknown;
    try {
      if (accepting && command?.autocomplete) {
        const focused = interaction.options.getFocused(true);
        choices = await command.autocomplete(
          {
            ...baseContext(interaction, log),
            options: optionsOf(interaction.options),
            focused: { name: focused.name, value: String(focused.value) },
          },
          app,
        );
      }
    } catch (error) {
      failure = error;
    }
    finish(log, name, 'autocomplete', started, failure);
    try {
      // Autocomplete cannot be deferred: a failure still answers, with no suggestions.
      await interaction.respond(choices.slice(0, 25));
    } catch (error) {
      log.warn({ err: error }, 'could not deliver autocomplete choices');
    }
  }

  async function runComponent(interaction: MessageComponentInteraction): Promise<void> {
    const started = performance.now();
    const prefix = interaction.customId.split(':', 1)[0] ?? '';
    const command = componentOwners.get(prefix);
    const name = command ? `${command.data.name} component` : 'component';
    const log = interactionLogger(interaction, name, 'component');
    let deferral: Promise<void> | undefined;
    const deferUpdate = () => (deferral ??= interaction.deferUpdate().then(() => undefined));
    try {
      if (!accepting) throw new UserError(SHUTTING_DOWN_MESSAGE);
      if (!command?.handleComponent) throw new UserError('These buttons have expired. Run the command again.');
      const result = await command.handleComponent(
        {
          ...baseContext(interaction, log),
          customId: interaction.customId,
          values: interaction.isAnySelectMenu() ? interaction.values : [],
          message: {
            id: interaction.message.id,
            createdTimestamp: interaction.message.createdTimestamp,
            ownerId: interaction.message.interactionMetadata?.user.id ?? null,
          },
          deferUpdate,
          progress: async (note) => {
            await deferUpdate();
            await interaction.editReply({ content: note, allowedMentions: { parse: [] } });
          },
        },
        app,
      );
      if ('update' in result) {
        if (deferral) {
          await deferral;
          await interaction.editReply(toMessageOptions(result.update));
        } else {
          await interaction.update(toMessageOptions(result.update));
        }
        // The message belongs to the interaction that created it: a press restarts its idle clock.
        const rootId = interaction.message.interactionMetadata?.id ?? interaction.message.id;
        expiry.schedule(rootId, result.update, (components) => interaction.editReply({ components }));
      } else if (deferral) {
        await deferral;
        const message = await interaction.followUp(toReplyOptions(result.reply));
        expiry.schedule(message.id, result.reply, (components) => interaction.webhook.editMessage(message.id, { components }));
      } else {
        await interaction.reply(toReplyOptions(result.reply));
        expiry.schedule(interaction.id, result.reply, (components) => interaction.editReply({ components }));
      }
      finish(log, name, 'component', started);
    } catch (error) {
      finish(log, name, 'component', started, error);
      await answerWithFailure(interaction, deferral, error, log);
    }
  }

  return {
    async handle(interaction) {
      const work = dispatch(interaction).catch((error: unknown) =>
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
