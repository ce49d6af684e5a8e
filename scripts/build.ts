/**
 * `npm run build` (run by `npm ci` as `prepare`, and by the Dockerfile): the bot's code compiled to
 * `dist/`, which `npm start` and the image run. The old `dist/` goes first, so a source file that
 * was moved or removed leaves no stale module behind.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compileTypeScript, PROJECT_ROOT, sourceFiles } from './compile.js';

const DIST = join(PROJECT_ROOT, 'dist');

await rm(DIST, { recursive: true, force: true });
await compileTypeScript(await sourceFiles(), DIST);
