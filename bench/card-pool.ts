/**
 * The card lists the matcher benchmark searches: the real 2025-04-25 dump as the matcher sees it,
 * with the curated old names (the shipped dump has no `misc_info`), or with the `misc_info`
 * fixture (beta names, views, Konami ids) for the whole pool.
 */
import type { MatchableCard } from '../src/cards/matcher.js';
import { loadCardDump } from '../test/helpers/card-dump.js';
import { loadMiscInfo } from '../test/helpers/misc-info.js';
import { OLD_CARD_NAMES } from './card-queries.js';

/** Every card with its curated old names (OLD_CARD_NAMES) as `altNames`, no popularity. */
export function loadMatchableCards(): MatchableCard[] {
  const oldNamesByCard = new Map<string, string[]>();
  for (const [oldName, current] of Object.entries(OLD_CARD_NAMES)) {
    oldNamesByCard.set(current, [...(oldNamesByCard.get(current) ?? []), oldName]);
  }
  return loadCardDump().map(({ id, name }) => {
    const altNames = oldNamesByCard.get(name);
    return altNames ? { id, name, altNames } : { id, name };
  });
}

/** Every card as the bot builds it from a `misc=yes` download: beta name, views and Konami id from the fixture. */
export function loadCardsWithMiscInfo(): MatchableCard[] {
  const misc = loadMiscInfo();
  return loadCardDump().map(({ id, name }) => {
    const info = misc.get(id);
    if (info === undefined) return { id, name };
    return { id, name, popularity: info.views, konamiId: info.konami_id, ...(info.beta_name === undefined ? {} : { altNames: [info.beta_name] }) };
  });
}
