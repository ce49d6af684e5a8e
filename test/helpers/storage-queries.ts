import type { Storage } from '../../src/storage/storage.js';

/** Counts the statements `storage` runs from now on (the settings' hot path must run none); read the count with the returned function. */
export function countQueries(storage: Pick<Storage, 'db'>): () => number {
  let queries = 0;
  const executor = storage.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = ((...args: Parameters<typeof execute>) => {
    queries++;
    return execute(...args);
  }) as typeof execute;
  return () => queries;
}
