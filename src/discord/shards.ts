import { z } from 'zod';

/** The gateway shards this process runs, out of the bot's total (`SHARD_IDS` of `SHARD_COUNT`). */
export interface ShardAssignment {
  /** Sorted, distinct, each within [0, count). */
  ids: readonly number[];
  count: number;
}

const countMessage = 'must be a whole number of shards, 1 or more';
const idsMessage = 'must be shard ids separated by commas, e.g. 0,1';

const shardCount = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : Number(value)))
  .pipe(z.number({ error: countMessage }).int(countMessage).min(1, countMessage).optional());

const shardIds = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value))
  .pipe(
    z
      .string()
      .regex(/^\d+(\s*,\s*\d+)*$/, idsMessage)
      .transform((list) => list.split(',').map((id) => Number(id.trim())))
      .optional(),
  );

/**
 * `SHARD_COUNT` alone runs every shard in this process; `SHARD_IDS` picks some of them and needs the
 * count, since a guild's shard is `(guild_id >> 22) % SHARD_COUNT` and every process must agree on it.
 * Neither: today's single process (discord.js's default, one shard).
 */
export const shardEnvironment = z
  .object({ SHARD_COUNT: shardCount, SHARD_IDS: shardIds })
  .superRefine(({ SHARD_COUNT: count, SHARD_IDS: ids }, context) => {
    // Zod runs this even when a field failed its own check; that field's problem is already reported.
    if (!Array.isArray(ids)) return;
    const problem = (message: string) => context.addIssue({ code: 'custom', path: ['SHARD_IDS'], message });
    if (new Set(ids).size !== ids.length) problem('lists the same shard twice');
    if (count === undefined) problem('needs SHARD_COUNT, the total number of shards of the bot');
    else if (Number.isInteger(count) && count >= 1 && ids.some((id) => id >= count)) {
      problem('every id must be below SHARD_COUNT (ids start at 0)');
    }
  })
  .transform(({ SHARD_COUNT: count, SHARD_IDS: ids }): ShardAssignment | undefined => {
    if (count === undefined) return undefined;
    const chosen = ids ?? Array.from({ length: count }, (_, id) => id);
    return { ids: [...chosen].sort((a, b) => a - b), count };
  });

/** The value of the `shard` metrics label and log field: the ids this process runs, e.g. `0,1`. */
export function shardLabel(shards: ShardAssignment): string {
  return shards.ids.join(',');
}
