import type { Logger } from 'pino';

/** Calls every listener with `value`; one that throws is logged as `failure` and the others still run. */
export function notifyAll<T>(listeners: Iterable<(value: T) => void>, value: T, logger: Logger, failure: string): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (error) {
      logger.error({ err: error }, failure);
    }
  }
}
