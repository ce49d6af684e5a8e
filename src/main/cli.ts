import { statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import sharp from 'sharp';
import type { Logger } from 'pino';
import { pathToFileURL } from 'node:url';
import { ALL_APP_PERMISSIONS, OPERATOR_MEMBER_PERMISSIONS, SERVER_INSTALLATION, settingsWithoutChoices, type OptionValues } from '../interaction/context.js';
import { LATE, raceDeadline } from '../interaction/deadline.js';
import type { Reply } from '../interaction/reply.js';
import { loadConfigOrReport, secretsOf } from '../runtime/config.js';
import { createLogger } from '../runtime/logger.js';
import { createMetrics } from '../runtime/metrics.js';
import { describeFailure } from '../render/errors.js';
import { renderAsJson, renderAsText } from '../render/text.js';
import { createServices } from '../app/services.js';
import { createSharedState } from '../state/index.js';
import { localAttachments } from '../services/discord-cdn/attachments.js';
import { readInvocation, type ParsedInvocation } from '../cli/invocation.js';

/** The commands that read the card database: only they load it (a one-shot run of the others needs none). */
const CARD_COMMANDS = new Set(['card', 'deck', 'Read deck']);

/**
 * Longest the terminal waits for what Discord would see edited in later (a deck picture's art still
 * downloading): the longest a member waits for an answer. The background's own waits hold no
 * process open, so without a deadline of its own the CLI, with YGOPRODeck unreachable, was left
 * waiting on nothing, and Node ended it with exit 13 and no output.
 */
const COMPLETION_WAIT_MS = 20_000;

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
    getChannel: (name) => typed<string>(name, 'string'),
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
  const invocation = readInvocation(argv);
  if ('code' in invocation) {
    if (invocation.stdout) console.log(invocation.stdout);
    if (invocation.stderr) console.error(invocation.stderr);
    return invocation.code;
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
    settings: settingsWithoutChoices({ locale: 'en-US' }),
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
  reply = await completed(reply, logger);
  console.log(invocation.json ? renderAsJson(reply) : renderAsText(reply));
  await writePicture(reply, invocation);
  await app.close();
  return 0;
}

/**
 * The answer as Discord would see it edited in later (a deck picture with the art downloaded in the
 * background), or as it is (cards without art drawn as tiles with their names) when that takes
 * longer than `COMPLETION_WAIT_MS` or fails: the terminal prints what it has, as the bot keeps it.
 */
async function completed(reply: Reply, logger: Logger): Promise<Reply> {
  if (!reply.completion) return reply;
  try {
    const fuller = await raceDeadline(reply.completion, COMPLETION_WAIT_MS);
    if (fuller !== LATE) return { ...reply, ...fuller };
    logger.warn(`the answer is shown as it was after ${COMPLETION_WAIT_MS / 1000} s: art still downloading`);
  } catch (error) {
    logger.warn({ err: error }, 'could not complete the answer: it is shown as it was');
  }
  return reply;
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
