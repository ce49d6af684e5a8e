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

export interface LoggerOptions {
  level: string;
  pretty?: boolean;
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

export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 8);
  const base = {
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    base: { service: 'almanac' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (options.pretty && !options.destination) {
    // pino-pretty is a devDependency: only `npm run dev` on a terminal asks for it.
    const pretty = pino.transport({
      target: 'pino-pretty',
      options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' },
    }) as DestinationStream;
    return pino(base, scrubbingDestination(pretty, secrets));
  }
  // Synchronous writes: nothing is lost when the process exits right after a fatal line.
  const destination = options.destination ?? pino.destination({ dest: 1, sync: true });
  return pino(base, scrubbingDestination(destination, secrets));
}
