/**
 * A worker thread's entry: builds matcher tables from the cards it is sent, one message after
 * another, and hands each back with its request's id (see off-thread.ts, which ends the worker
 * once it has been idle for a moment; its heap goes with it).
 */
import { parentPort } from 'node:worker_threads';
import { buildMatcherTables } from '../../cards/matcher-tables.js';
import { soundKey } from '../../cards/sound-key.js';
import { packTables, unpackBuildInput, type BuildRequest } from './transfer.js';

parentPort?.on('message', ({ id, input }: BuildRequest) => {
  const { cards, aliases, localizedNames } = unpackBuildInput(input);
  const { message, transfer } = packTables(buildMatcherTables(cards, aliases, soundKey, localizedNames));
  parentPort?.postMessage({ id, tables: message }, transfer);
});
