import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Upstreams on a closed local port and a throwaway data directory: an entry point run by a test can
 * never reach the real APIs or write into the repository's ./data.
 */
export const OFFLINE_ENV: NodeJS.ProcessEnv = {
  GEOJS_URL: 'http://127.0.0.1:9',
  WALLHAVEN_URL: 'http://127.0.0.1:9',
  YGOPRODECK_URL: 'http://127.0.0.1:9',
  DATA_DIR: join(tmpdir(), 'almanac-entry-point-test'),
};

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry point of the project with tsx, as `npm run <script>` would, offline. */
export function runEntryPoint(entry: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 20_000): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...OFFLINE_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} ${args.join(' ')} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
