import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { OLD_CARD_NAMES } from '../../bench/card-queries.js';
import { loadCardDump } from '../helpers/card-dump.js';
import { generateMiscInfo, loadMiscInfo, MISC_INFO_URL } from '../helpers/misc-info.js';

describe('the misc_info fixture', () => {
  const dump = loadCardDump();

  it('is exactly what the seeded generator makes, for every card of the dump', () => {
    const stored = JSON.parse(brotliDecompressSync(readFileSync(MISC_INFO_URL)).toString('utf8')) as unknown;
    expect(stored).toEqual(generateMiscInfo(dump));
    expect(loadMiscInfo().size).toBe(dump.length);
  });

  it('carries the real renames as beta names, distinct Konami ids, and staples far more viewed than ordinary cards', () => {
    const misc = loadMiscInfo();
    const idByName = new Map(dump.map((card) => [card.name, card.id]));
    for (const [oldName, current] of Object.entries(OLD_CARD_NAMES)) expect(misc.get(idByName.get(current)!)?.beta_name).toBe(oldName);
    const konamiIds = [...misc.values()].map((info) => info.konami_id);
    expect(new Set(konamiIds).size).toBe(konamiIds.length);
    const views = [...misc.values()].map((info) => info.views).sort((a, b) => a - b);
    const median = views[Math.floor(views.length / 2)]!;
    expect(median).toBeGreaterThan(10_000);
    expect(median).toBeLessThan(60_000);
    expect(misc.get(idByName.get('Blue-Eyes White Dragon')!)!.views).toBeGreaterThan(50 * median);
  });

  it('has formats, Master Duel rarities and ban statuses, and treated-as names', () => {
    const misc = loadMiscInfo();
    const byName = new Map(dump.map((card) => [card.name, misc.get(card.id)!]));
    expect(byName.get('Maxx "C"')!.ban_masterduel).toBe('Forbidden');
    expect(byName.get('Harpie Lady 1')!.treated_as).toBe('Harpie Lady');
    const skill = dump.find((card) => card.frameType === 'skill')!;
    expect(misc.get(skill.id)!.formats).toEqual(['Duel Links']);
    const inMasterDuel = [...misc.values()].filter((info) => info.formats.includes('Master Duel'));
    expect(inMasterDuel.length / misc.size).toBeGreaterThan(0.8);
    expect(inMasterDuel.every((info) => info.md_rarity !== undefined)).toBe(true);
  });
});
