/**
 * How many values a fuzz test tries. `npm test` tries a quarter of a fuzz test's full count with a
 * new seed each run, so the suite stays within its two minutes while the values tried still vary
 * run after run; `npm run bench -- --only fuzz` (ALMANAC_FUZZ=full) tries the full count.
 */
export const FUZZ_SIZE_ENV = 'ALMANAC_FUZZ';

export function fuzzRuns(full: number): number {
  return process.env[FUZZ_SIZE_ENV] === 'full' ? full : Math.ceil(full / 4);
}
