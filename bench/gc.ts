import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** V8's full collection, also without `--expose-gc` on the command line (`npm run bench` runs under tsx). */
export function exposedGc(): (() => void) | undefined {
  if (typeof globalThis.gc === 'function') return globalThis.gc as () => void;
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}
