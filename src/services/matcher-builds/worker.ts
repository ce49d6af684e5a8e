/**
 * A worker thread's entry: builds one matcher's tables from the cards it is sent, hands them back
 * and ends (see off-thread.ts). Its heap goes with it.
 */
import { parentPort } from 'node:worker_threads';
import { buildMatcherTables } from '../../cards/matcher-tables.js';
import { soundKey } from '../../cards/sound-key.js';
import { packTables, unpackBuildInput, type PackedBuildInput } from './transfer.js';

parentPort?.once('message', (input: PackedBuildInput) => {
  const { cards, aliases, localizedNames } = unpackBuildInput(input);
  const { message, transfer } = packTables(buildMatcherTables(cards, aliases, soundKey, localizedNames));
  parentPort?.postMessage(message, transfer);
});
