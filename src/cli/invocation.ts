/**
 * How the terminal reads its argv: against the registered command definitions, exactly as Discord
 * would validate them. Usage and mistakes are answered here, before anything is configured or loaded.
 */

import {
  ApplicationCommandOptionType,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
} from 'discord.js';
import { commands } from '../../commands/index.js';
import type { AppServices } from '../app/services.js';
import type { Command as KernelCommand } from '../interaction/command.js';

type Command = KernelCommand<AppServices>;

const EXIT_USAGE = 2;

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

export interface ParsedInvocation {
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
function parseInvocation(argv: string[]): ParsedInvocation {
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

/** What the terminal prints and its exit code when argv asks for usage or holds a mistake: nothing else runs. */
export interface EarlyExit {
  code: 0 | typeof EXIT_USAGE;
  stdout: string;
  stderr: string;
}

/** The invocation argv asks for, or the usage (`--help`, `-h`) or one-line refusal to print instead. */
export function readInvocation(argv: string[]): ParsedInvocation | EarlyExit {
  const help = helpFor(argv);
  if (help !== null) return { code: 0, stdout: help, stderr: '' };
  try {
    return parseInvocation(argv);
  } catch (error) {
    if (error instanceof UsageError) return { code: EXIT_USAGE, stdout: '', stderr: `${error.message} ${HELP_HINT}` };
    throw error;
  }
}
