import './runtime/check-node.js';
import { statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import sharp from 'sharp';
import { pathToFileURL } from 'node:url';
import {
  ApplicationCommandOptionType,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
} from 'discord.js';
import { commands } from '../commands/index.js';
import { ALL_APP_PERMISSIONS, OPERATOR_MEMBER_PERMISSIONS, SERVER_INSTALLATION, type OptionValues } from './interaction/context.js';
import type { Command } from './interaction/command.js';
import type { Reply } from './interaction/reply.js';
import { loadConfigOrReport, secretsOf } from './runtime/config.js';
import { createLogger } from './runtime/logger.js';
import { createMetrics } from './runtime/metrics.js';
import { describeFailure } from './render/errors.js';
import { renderAsJson, renderAsText } from './render/text.js';
import { createServices } from './app/services.js';
import { createSharedState } from './state/index.js';
import { localAttachments } from './services/attachments.js';

const EXIT_USAGE = 2;
/** The commands that read the card database: only they load it (a one-shot run of the others needs none). */
const CARD_COMMANDS = new Set(['card', 'deck', 'Read deck']);

function commandWord(command: Command): string {
  return command.data.name;
}

const GENERAL_USAGE = 'Usage: npm run cli -- <command> [subcommand] [--option value ...] [--json] [--out <picture file>]';
const HELP_HINT = 'Run "npm run cli -- --help" for usage.';

/** Usage of every command, or of `only` (for `<command> --help`). */
function usage(only?: Command): string {
  const lines = [GENERAL_USAGE, '', only ? 'Usage of this command:' : 'Commands:'];
  for (const command of only ? [only] : commands) {
    if (command.kind === 'message') {
      lines.push(`  "${command.data.name}" --message <text>`);
      continue;
    }
    const options = (command.data.options ?? []) as APIApplicationCommandOption[];
    const subcommands = options.filter((option) => option.type === ApplicationCommandOptionType.Subcommand);
    if (subcommands.length === 0) lines.push(`  ${command.data.name}${describeOptions(options as APIApplicationCommandBasicOption[])}`);
    for (const sub of subcommands) {
      lines.push(`  ${command.data.name} ${sub.name}${describeOptions((sub.options ?? []) as APIApplicationCommandBasicOption[])}`);
    }
  }
  lines.push(
    '',
    'Add --json to print the exact Discord message payload; --help or -h prints this.',
    'A picture in the answer (the deck image) is written to --out (.jpg, .png or .webp), or, for a command given --file, next to that file.',
  );
  return lines.join('\n');
}

/** `--help`/`-h` anywhere asks for usage: of the command named first when there is one, else of all. */
function helpFor(argv: string[]): string | null {
  if (!argv.some((token) => token === '--help' || token === '-h')) return null;
  const name = argv.find((token) => !token.startsWith('-'));
  return usage(commands.find((command) => commandWord(command) === name));
}

function describeOptions(options: APIApplicationCommandBasicOption[]): string {
  return options.map((option) => (option.required ? ` --${option.name} <${option.name}>` : ` [--${option.name} <${option.name}>]`)).join('');
}

class UsageError extends Error {}

interface ParsedInvocation {
  command: Command;
  subcommand: string | null;
  values: Map<string, string | number | boolean>;
  message: string | undefined;
  json: boolean;
  /** Where to write the answer's picture (`--out`). */
  out: string | undefined;
  /** The file an attachment option named (`--file deck.ydk`): a picture goes next to it by default. */
  attached: string | undefined;
}

/** Flags of the terminal itself, not options of any command. */
const CLI_FLAGS = new Set(['json', 'out']);

/**
 * Splits argv into positionals and `--name value` / `--name=value` flags. A flag with no value
 * (followed by another flag or nothing) is `true`, which suits boolean options such as `--public`.
 */
function tokenize(argv: string[]): { flags: Record<string, string | boolean>; positionals: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index]!;
    if (!token.startsWith('--')) {
      positionals.push(token);
      continue;
    }
    const [name, inlineValue] = token.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const next = argv[index + 1];
    if (inlineValue !== undefined) flags[name] = inlineValue;
    else if (name !== 'json' && next !== undefined && !next.startsWith('--')) {
      flags[name] = next;
      index++;
    } else flags[name] = true;
  }
  return { flags, positionals };
}

/** Parses argv against the registered command definitions, exactly as Discord would validate them. */
export function parseInvocation(argv: string[]): ParsedInvocation {
  const { flags, positionals } = tokenize(argv);
  const json = flags.json === true;
  if (flags.out === true) throw new UsageError('--out needs a file name.');
  const out = typeof flags.out === 'string' ? flags.out : undefined;
  const [name, maybeSub] = positionals;
  const command = commands.find((candidate) => commandWord(candidate) === name);
  if (!name || !command) throw new UsageError(name ? `Unknown command "${name}".` : 'No command given.');
  const optionFlags = Object.entries(flags).filter(([flag]) => !CLI_FLAGS.has(flag));

  if (command.kind === 'message') {
    const message = flags.message;
    if (typeof message !== 'string') throw new UsageError(`"${name}" needs --message <text>.`);
    const unknown = optionFlags.find(([flag]) => flag !== 'message');
    if (unknown) throw new UsageError(`Unknown option --${unknown[0]} for "${name}".`);
    return { command, subcommand: null, values: new Map(), message, json, out, attached: undefined };
  }

  let options = (command.data.options ?? []) as APIApplicationCommandOption[];
  let subcommand: string | null = null;
  const subcommands = options.filter((option) => option.type === ApplicationCommandOptionType.Subcommand);
  if (subcommands.length > 0) {
    const sub = subcommands.find((candidate) => candidate.name === maybeSub);
    if (!sub) throw new UsageError(maybeSub ? `Unknown subcommand "${name} ${maybeSub}".` : `"${name}" needs a subcommand.`);
    subcommand = sub.name;
    options = sub.options ?? [];
  } else if (maybeSub !== undefined) {
    throw new UsageError(`"${name}" takes no subcommand.`);
  }
  const basic = options as APIApplicationCommandBasicOption[];
  const values = new Map<string, string | number | boolean>();
  for (const [flag, raw] of optionFlags) {
    const option = basic.find((candidate) => candidate.name === flag);
    if (!option) throw new UsageError(`Unknown option --${flag} for "${[name, subcommand].filter(Boolean).join(' ')}".`);
    values.set(flag, coerce(option, raw));
  }
  for (const option of basic) {
    if (option.required && !values.has(option.name)) throw new UsageError(`Missing required option --${option.name}.`);
  }
  const attachment = basic.find((option) => option.type === ApplicationCommandOptionType.Attachment && values.has(option.name));
  const attached = attachment === undefined ? undefined : String(values.get(attachment.name));
  return { command, subcommand, values, message: undefined, json, out, attached };
}

function coerce(option: APIApplicationCommandBasicOption, raw: string | boolean | undefined): string | number | boolean {
  switch (option.type) {
    case ApplicationCommandOptionType.Boolean:
      if (raw === true || raw === 'true') return true;
      if (raw === 'false') return false;
      throw new UsageError(`--${option.name} must be true or false.`);
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const number = Number(raw);
      if (typeof raw !== 'string' || !Number.isFinite(number)) throw new UsageError(`--${option.name} must be a number.`);
      return number;
    }
    default:
      if (typeof raw !== 'string') throw new UsageError(`--${option.name} needs a value.`);
      if ('choices' in option && option.choices && !option.choices.some((choice) => choice.value === raw)) {
        throw new UsageError(`--${option.name} must be one of: ${option.choices.map((choice) => choice.value).join(', ')}.`);
      }
      return raw;
  }
}

function optionReader(subcommand: string | null, values: Map<string, string | number | boolean>): OptionValues {
  const typed = <T>(name: string, type: string): T | null => {
    const value = values.get(name);
    return typeof value === type ? (value as T) : null;
  };
  return {
    subcommand,
    getString: (name) => typed<string>(name, 'string'),
    getBoolean: (name) => typed<boolean>(name, 'boolean'),
    getInteger: (name) => typed<number>(name, 'number'),
    getAttachment: (name) => {
      // `--file deck.ydk`: a file of the operator's, read by `localAttachments` like Discord's CDN would serve it.
      const path = typed<string>(name, 'string');
      return path === null ? null : { name: basename(path), size: fileSize(path), url: pathToFileURL(resolve(path)).href };
    },
  };
}

/** The file's size, or 0 when it cannot be read (reading it then says so). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function run(argv: string[]): Promise<number> {
  const help = helpFor(argv);
  if (help !== null) {
    console.log(help);
    return 0;
  }
  let invocation: ParsedInvocation;
  try {
    invocation = parseInvocation(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message} ${HELP_HINT}`);
      return EXIT_USAGE;
    }
    throw error;
  }
  const config = loadConfigOrReport('The CLI cannot run');
  if (!config) return 1;
  // Logs go to stderr so that --json output on stdout stays parseable.
  const logger = createLogger({
    level: process.env.LOG_LEVEL ? config.logLevel : 'warn',
    pretty: config.prettyLogs,
    secrets: secretsOf(config),
    fd: 2,
  });
  const metrics = createMetrics();
  // With REDIS_URL a terminal run spends the fleet's budgets and reuses its caches like any process.
  const state = await createSharedState({ redisUrl: config.redisUrl, logger, metrics });
  const app = await createServices(
    { config, logger, metrics, state },
    { startCardDatabase: CARD_COMMANDS.has(invocation.command.data.name), attachments: localAttachments },
  );
  const base = {
    interactionId: 'cli',
    user: { id: 'cli', username: 'cli', locale: 'en-US' },
    channel: { id: 'cli', kind: 'guild' as const, ageRestricted: false },
    installation: SERVER_INSTALLATION,
    appPermissions: ALL_APP_PERMISSIONS,
    memberPermissions: OPERATOR_MEMBER_PERMISSIONS,
    log: logger,
    defer: async () => undefined,
    progress: async (note: string) => {
      process.stderr.write(`${note}\n`);
    },
  };
  let reply: Reply;
  try {
    const { command } = invocation;
    reply =
      command.kind === 'message'
        ? await command.execute({ ...base, targetMessage: { id: 'cli', content: invocation.message ?? '', attachments: [] } }, app)
        : await command.execute({ ...base, options: optionReader(invocation.subcommand, invocation.values) }, app);
  } catch (error) {
    // The reply says what went wrong in one sentence; the error and its stack are for LOG_LEVEL=debug.
    logger.debug({ err: error }, 'command failed');
    reply = { content: describeFailure(error), ephemeral: true };
    console.log(invocation.json ? renderAsJson(reply) : renderAsText(reply));
    await app.close();
    return 1;
  }
  // The terminal waits for what Discord would see edited in later (a deck picture's missing art).
  if (reply.completion) reply = { ...reply, ...(await reply.completion) };
  console.log(invocation.json ? renderAsJson(reply) : renderAsText(reply));
  await writePicture(reply, invocation);
  await app.close();
  return 0;
}

/**
 * Writes the answer's picture to `--out` (in the format its extension names), or next to the file
 * the command read (`--file deck.ydk` → `deck.jpg`); says where on stderr, so stdout stays the answer.
 */
async function writePicture(reply: Reply, invocation: ParsedInvocation): Promise<void> {
  const picture = reply.files?.find((file) => /\.(jpe?g|png)$/i.test(file.name));
  const read = invocation.attached;
  const target = invocation.out ?? (read === undefined ? undefined : join(dirname(read), `${basename(read, extname(read))}${extname(picture?.name ?? '')}`));
  if (picture === undefined || target === undefined) return;
  await sharp(picture.data).toFile(target);
  process.stderr.write(`picture written to ${target}\n`);
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  // Not a user mistake nor an upstream failure (those are answered above): say it in one line; the stack only on request.
  console.error(`The CLI failed: ${(error as Error).message}`);
  if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(error);
  process.exitCode = 1;
}
