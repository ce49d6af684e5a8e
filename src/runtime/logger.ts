import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

const REDACTED = '[REDACTED]';

/** Paths that may hold a secret however it got into a log object. */
const REDACT_PATHS = [
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  'config.discordToken',
  'config.wallhavenApiKey',
];

interface LoggerOptions {
  level: string;
  /** Pretty lines when the output is a terminal and pino-pretty is installed; JSON lines otherwise. */
  pretty?: boolean;
  /** Where lines go when no `destination` is given: 1 (stdout, default) or 2 (stderr, the CLI's). */
  fd?: 1 | 2;
  /** Literal secret values scrubbed from every line, whatever field or message they hide in. */
  secrets?: string[];
  /** Where lines go (default stdout); tests pass a capturing stream. */
  destination?: DestinationStream;
}

/**
 * Replaces every occurrence of each secret in `text`. Secrets shorter than 8 characters are not
 * scrubbed: they would mangle ordinary words and are not real tokens.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length >= 8) scrubbed = scrubbed.replaceAll(secret, REDACTED);
  }
  return scrubbed;
}

/**
 * An interaction's token lets anyone edit or follow up its reply for 15 minutes. discord.js errors
 * carry it after the application or interaction id (`url`, and `majorParameter` of a rate limit),
 * so every line is scrubbed of it: a long segment after a snowflake and a slash is always a token.
 */
const INTERACTION_TOKEN_IN_PATH = /(\d{17,20}\/)[^/?#\s"\\]{20,}/g;

function scrubInteractionTokens(text: string): string {
  return text.replace(INTERACTION_TOKEN_IN_PATH, `$1${REDACTED}`);
}

/** A destination that scrubs secrets and interaction tokens from each serialized line before passing it on. */
function scrubbingDestination(target: DestinationStream, secrets: readonly string[]): DestinationStream {
  return {
    write(line: string) {
      target.write(scrubInteractionTokens(scrubSecrets(line, secrets)));
    },
  };
}

const LEVELS_WITH_STACKS = new Set(['debug', 'trace']);

/**
 * Errors keep their type, message and fields at every level, and their stack (with causes) only at
 * debug and trace: an expected failure (an upstream down, a refused token) reads as one line.
 */
function errorSerializer(level: string): (error: unknown) => unknown {
  const withStacks = LEVELS_WITH_STACKS.has(level);
  return (error) => {
    const serialized = pino.stdSerializers.err(error as Error) as unknown;
    if (withStacks || serialized === null || typeof serialized !== 'object') return serialized;
    const { stack: _stack, ...rest } = serialized as Record<string, unknown>;
    return rest;
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 8);
  const base = {
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    base: { service: 'almanac' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: errorSerializer(options.level) },
  };
  const fd = options.fd ?? 1;
  const terminal = (fd === 1 ? process.stdout : process.stderr).isTTY === true;
  if (options.pretty && !options.destination && terminal && prettyPrinterInstalled()) {
    const pretty = pino.transport({
      target: 'pino-pretty',
      options: { colorize: true, singleLine: true, errorLikeObjectKeys: [], translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', destination: fd },
    }) as DestinationStream;
    return pino(base, scrubbingDestination(pretty, secrets));
  }
  // Synchronous writes: nothing is lost when the process exits right after a fatal line.
  const destination = options.destination ?? pino.destination({ dest: fd, sync: true });
  return pino(base, scrubbingDestination(destination, secrets));
}

/**
 * pino-pretty is a devDependency: a production install (`npm ci --omit=dev`, the Docker image) has
 * none, and then a terminal gets JSON lines, which is what log collectors want there anyway; a second,
 * hand-written pretty printer would only copy pino-pretty.
 */
function prettyPrinterInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
