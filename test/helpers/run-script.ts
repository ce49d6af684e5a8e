import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFenceLines, recordBlockedAttempt } from '../fence/network-fence.js';
import { COMPILED_ENTRY_POINTS_ENV } from './compiled-entry-points.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FENCE_PRELOAD = fileURLToPath(new URL('../fence/child-preload.ts', import.meta.url));

/**
 * Upstreams on a closed local port and a throwaway data directory: an entry point run by a test can
 * never reach the real APIs or write into the repository's ./data.
 */
export const OFFLINE_ENV: NodeJS.ProcessEnv = {
  GEOJS_URL: 'http://127.0.0.1:9',
  WALLHAVEN_URL: 'http://127.0.0.1:9',
  YGOPRODECK_URL: 'http://127.0.0.1:9',
  YGOPRODECK_IMAGES_URL: 'http://127.0.0.1:9/images',
  DNS_SERVERS: '127.0.0.1:9',
  DATA_DIR: join(tmpdir(), 'almanac-entry-point-test'),
};

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningEntryPoint {
  child: ChildProcess;
  /** Everything written so far to stdout and stderr, in arrival order. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has exited and its output is read. */
  exited: Promise<number | null>;
}

/**
 * `node` arguments that run `entry` (a TypeScript path such as `src/cli.ts`) behind the network
 * fence: its transpiled copy when the test run made one (test/helpers/compiled-entry-points.ts),
 * else the source through tsx.
 */
function entryPointCommand(entry: string): string[] {
  const compiled = process.env[COMPILED_ENTRY_POINTS_ENV];
  if (compiled === undefined) return ['--import', 'tsx', '--import', FENCE_PRELOAD, entry];
  const javaScript = (path: string) => join(compiled, path.replace(/\.ts$/, '.js'));
  return ['--import', javaScript('test/fence/child-preload.ts'), javaScript(entry)];
}

/** The same command as one line for a shell (`script` runs its command through one). */
export function entryPointCommandLine(entry: string, args: string[] = []): string {
  return [process.execPath, ...entryPointCommand(entry), ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
}

/**
 * Starts an entry point of the project (see `entryPointCommand`), as `npm start`/`npm run <script>` would,
 * offline (upstreams on a closed port unless `env` points them elsewhere) and behind the network
 * fence: what it tries to reach past loopback fails the test that started it.
 */
export function startEntryPoint(entry: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): RunningEntryPoint {
  const child = spawn(process.execPath, [...entryPointCommand(entry), ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...OFFLINE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let both = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    both += chunk.toString();
  });
  let unreadLines = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    both += chunk.toString();
    const lines = (unreadLines + chunk.toString()).split('\n');
    unreadLines = lines.pop()!;
    for (const attempt of parseFenceLines(lines.join('\n'))) recordBlockedAttempt(attempt);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => both, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs an entry point to its end and returns its exit code and output. */
export async function runEntryPoint(entry: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 20_000): Promise<ScriptResult> {
  const running = startEntryPoint(entry, args, env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      running.child.kill('SIGKILL');
      reject(new Error(`${entry} ${args.join(' ')} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const code = await Promise.race([running.exited, timeout]);
    return { code, stdout: running.stdout(), stderr: running.stderr() };
  } finally {
    clearTimeout(timer);
  }
}

/** The `msg` of every JSON log line an entry point printed at `level` (60 fatal, 50 error, 40 warn, 30 info). */
export function logMessages(output: string, level?: number): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => level === undefined || line.level === level)
    .map((line) => line.msg);
}

/** A stack trace in an entry point's output, which a one-line failure must not carry. */
export const NO_STACK = /\n\s+at |"stack"/;
