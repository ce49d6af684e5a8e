import { createRequire } from 'node:module';
import Redact from '@pinojs/redact';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

const REDACTED = '[REDACTED]';

/** Fields that are a secret whatever their value. */
const SECRET_FIELDS = new Set(['token', 'apiKey', 'authorization']);

/** Paths inside any field's object (an options bag, a request, an upstream's error) that may hold a secret. */
const SECRET_PATHS_IN_ANY_FIELD = ['token', 'apiKey', 'authorization', 'headers.authorization', 'headers["x-api-key"]'];

/** Paths inside these fields, besides the ones above. */
const SECRET_PATHS_IN_FIELD: Record<string, string[]> = {
  headers: ['authorization', '["x-api-key"]'],
  config: ['discordToken', 'wallhavenApiKey'],
};

type RedactFields = (fields: Record<string, unknown>) => Record<string, unknown>;

function redactorOf(paths: string[]): (value: unknown) => unknown {
  // `serialize` returns the redacted copy itself: pino stringifies the line once, after.
  return Redact({ paths, censor: REDACTED, serialize: (copy: unknown) => copy, strict: false }) as (value: unknown) => unknown;
}

/**
 * Redaction of secret-bearing fields and paths, run on the fields of each line (pino's
 * `formatters.log`) and on each child's bindings (`redactingChildren`). Not pino's `redact` option:
 * with wildcard paths it runs @pinojs/redact on every field of every line and binding, strings and
 * numbers included, and that parses its paths again on each call (most of pino's 28 KB per cached
 * interaction, measured in fad2110's BENCHMARKS.md). Here only a secret field or an object is
 * redacted (by the same library), and the line's object is copied only when one of its fields is.
 */
function secretRedaction(): { fields: RedactFields; value: (key: string, value: unknown) => unknown } {
  const inAnyField = redactorOf(SECRET_PATHS_IN_ANY_FIELD);
  const inField = new Map(Object.entries(SECRET_PATHS_IN_FIELD).map(([key, paths]) => [key, redactorOf([...SECRET_PATHS_IN_ANY_FIELD, ...paths])]));
  const value = (key: string, fieldValue: unknown): unknown => {
    if (SECRET_FIELDS.has(key)) return REDACTED;
    if (fieldValue === null || typeof fieldValue !== 'object') return fieldValue;
    return (inField.get(key) ?? inAnyField)(fieldValue);
  };
  const fields: RedactFields = (line) => {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(line)) {
      // An error is redacted once serialized (its message and stack are not own enumerable fields to copy).
      if (key === 'err') continue;
      const redacted = value(key, line[key]);
      if (redacted !== line[key]) (copy ??= { ...line })[key] = redacted;
    }
    return copy ?? line;
  };
  return { fields, value };
}

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
function errorSerializer(level: string, redact: (key: string, value: unknown) => unknown): (error: unknown) => unknown {
  const withStacks = LEVELS_WITH_STACKS.has(level);
  return (error) => {
    const serialized = pino.stdSerializers.err(error as Error) as unknown;
    if (withStacks || serialized === null || typeof serialized !== 'object') return redact('err', serialized);
    const { stack: _stack, ...rest } = serialized as Record<string, unknown>;
    return redact('err', rest);
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 8);
  const redaction = secretRedaction();
  const base = {
    level: options.level,
    formatters: { log: redaction.fields },
    base: { service: 'almanac' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: errorSerializer(options.level, redaction.value) },
  };
  const fd = options.fd ?? 1;
  const terminal = (fd === 1 ? process.stdout : process.stderr).isTTY === true;
  if (options.pretty && !options.destination && terminal && prettyPrinterInstalled()) {
    const pretty = pino.transport({
      target: 'pino-pretty',
      options: { colorize: true, singleLine: true, errorLikeObjectKeys: [], translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', destination: fd },
    }) as DestinationStream;
    return redactingChildren(pino(base, scrubbingDestination(pretty, secrets)), redaction.fields);
  }
  // Synchronous writes: nothing is lost when the process exits right after a fatal line.
  const destination = options.destination ?? pino.destination({ dest: fd, sync: true });
  return redactingChildren(pino(base, scrubbingDestination(destination, secrets)), redaction.fields);
}

/**
 * pino gives a child's bindings to no formatter (its `formatters.bindings` is for the root's pid and
 * hostname), so they are redacted on the way in; children inherit this `child` from the root.
 */
function redactingChildren(logger: Logger, redact: RedactFields): Logger {
  const { child } = logger;
  logger.child = function <Levels extends string = never>(this: Logger, bindings: pino.Bindings, options?: pino.ChildLoggerOptions<Levels>) {
    return child.call<Logger, [pino.Bindings, pino.ChildLoggerOptions<Levels> | undefined], pino.Logger<Levels>>(this, redact(bindings), options);
  };
  return logger;
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
