import type { Migration } from 'kysely';
import { firstSchema } from './0001_first_schema.js';
import { banlistHistory } from './0002_banlist_history.js';
import { cardSetHistory } from './0003_card_set_history.js';
import { pollTurns } from './0004_poll_turns.js';

/**
 * Every migration this version knows, by name, applied in name order at start. Listed here rather
 * than read from the folder, so that the build and the tests' bundles carry them like any module.
 * A new one gets the next number and is never renamed, edited or removed once released: a database
 * that has run a name this list lacks was migrated by a newer Almanac, and the start refuses it.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_first_schema': firstSchema,
  '0002_banlist_history': banlistHistory,
  '0003_card_set_history': cardSetHistory,
  '0004_poll_turns': pollTurns,
};
