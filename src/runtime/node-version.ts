/**
 * The Node.js releases Almanac runs on, checked before anything heavy is imported so that an old
 * Node fails with one line instead of a syntax error or a missing API deep in a dependency.
 *
 * Why these: the npm scripts use `--env-file-if-exists` (Node 20.19.0, 22.9.0), and the dev
 * toolchain (vite/rolldown under vitest, eslint-visitor-keys) declares `^20.19.0 || >=22.13.0`
 * at its strictest. Keep in step with `engines` in package.json.
 */
export const REQUIRED_NODE = '^20.19.0 || >=22.13.0';

const MINIMUM_BY_MAJOR: readonly (readonly [major: number, minor: number])[] = [
  [20, 19],
  [22, 13],
];

/** True when `version` (e.g. `v20.18.1`) satisfies `REQUIRED_NODE`. */
export function isSupportedNode(version: string): boolean {
  const match = /^v?(\d+)\.(\d+)\./.exec(version);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major === 21) return false;
  if (major > 22) return true;
  const minimum = MINIMUM_BY_MAJOR.find(([m]) => m === major);
  return minimum !== undefined && minor >= minimum[1];
}

/** The one line printed when the running Node is too old. */
export function nodeVersionProblem(version: string): string | null {
  return isSupportedNode(version)
    ? null
    : `Almanac needs Node.js ${REQUIRED_NODE}; this is Node.js ${version}. Install a newer Node.js 20 or 22 LTS (https://nodejs.org).`;
}
