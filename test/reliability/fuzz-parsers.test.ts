import { isIP } from 'node:net';
import fc from 'fast-check';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { findLookupTargets, parseLookupList } from '../../src/ip/address-list.js';
import type { LookupTarget } from '../../src/ip/lookup-entry.js';
import { parseCardCustomId } from '../../src/cards/custom-ids.js';
import { parseCardSetCustomId } from '../../src/cards/custom-ids.js';
import { truncate } from '../../src/render/format.js';
import { inertText, quoteUserText } from '../../src/render/user-text.js';
import { parseIpAddress } from '../../src/ip/address.js';
import { UpstreamHttp } from '../../src/upstream/http.js';
import { buildSearchQuery, wallpaperDetailPath } from '../../src/wallpaper/wallhaven-query.js';
import { parseWallpaperId, WALLPAPER_ID_PATTERN } from '../../src/wallpaper/wallhaven-site.js';
import { decodePagerId, encodePagerId } from '../../src/wallpaper/pager-state.js';
import { parseCategories, parsePurity, parseQuery, parseRatio, parseResolution, parseSorting } from '../../src/wallpaper/search-options.js';
import { HOSTILE_STRING, hostileUpTo } from '../helpers/hostile-input.js';
import { hasLoneSurrogate, injectedLinks } from '../helpers/payload-checks.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/**
 * Hostile input at the parse, URL and render level: the functions every option value goes through
 * first, with 5,000 values each (fast: no I/O). Each must refuse or accept without throwing, accept
 * only what is safe in a URL, and build URLs that stay on the upstream's origin and API path.
 */

const RUNS = fuzzRuns(5_000);
const agent = new Agent();
const upstream = (name: 'geojs' | 'wallhaven' | 'ygoprodeck', baseUrl: string, pathPrefixes: string[]) =>
  new UpstreamHttp({ upstream: name, baseUrl, pathPrefixes, dispatcher: agent });
const geojs = upstream('geojs', 'https://get.geojs.io', ['/v1/ip/geo.json']);
const wallhaven = upstream('wallhaven', 'https://wallhaven.cc', ['/api/v1/search', '/api/v1/w/']);
const ygoprodeck = upstream('ygoprodeck', 'https://db.ygoprodeck.com', ['/api/v7/']);

afterAll(async () => {
  await agent.close();
});

function expectInside(url: URL, origin: string, prefix: string): void {
  expect(url.origin).toBe(origin);
  expect(url.pathname.startsWith(prefix)).toBe(true);
  expect(url.username + url.password).toBe('');
}

/** An address is canonical; a name is lowercase LDH (or `_`) labels that DNS may be asked about. */
function expectSafeTargets(targets: readonly LookupTarget[]): void {
  for (const target of targets) {
    if (target.kind === 'address') {
      expect(isIP(target.address)).not.toBe(0);
      expect(target.address).not.toMatch(/[%/\\\s]/);
      expect(parseIpAddress(target.address)).toMatchObject({ ok: true, address: target.address });
    } else {
      expect(target.name).toMatch(/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})+$/);
      expect(target.name.length).toBeLessThanOrEqual(253);
    }
  }
}

describe(`parsers, URL builders and escapers, ${RUNS} hostile values each`, () => {
  it('IP lookup lists: only plain canonical addresses and DNS-safe names are accepted, addresses travel only in ?ip=', () => {
    fc.assert(
      fc.property(HOSTILE_STRING, (input) => {
        const list = parseLookupList(input);
        expectSafeTargets(list.targets);
        const addresses = list.targets.flatMap((target) => (target.kind === 'address' ? [target.address] : []));
        if (addresses.length > 0) {
          const url = geojs.url('/v1/ip/geo.json', { ip: addresses.join(',') });
          expectInside(url, 'https://get.geojs.io', '/v1/ip/geo.json');
          expect(url.searchParams.get('ip')).toBe(addresses.join(','));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('targets found in a message are plain addresses and DNS-safe names', () => {
    fc.assert(
      fc.property(HOSTILE_STRING, (text) => expectSafeTargets(findLookupTargets(text))),
      { numRuns: RUNS },
    );
  });

  it('wallpaper ids: an accepted id is a bare path segment under /api/v1/w/', () => {
    fc.assert(
      fc.property(HOSTILE_STRING, (input) => {
        const parsed = parseWallpaperId(input);
        if (!parsed.ok) return;
        expect(parsed.id).toMatch(WALLPAPER_ID_PATTERN);
        const url = wallhaven.url(wallpaperDetailPath(parsed.id));
        expectInside(url, 'https://wallhaven.cc', '/api/v1/w/');
        expect(url.pathname).toBe(`/api/v1/w/${parsed.id}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('wallpaper search options: whatever is accepted builds a search URL on Wallhaven that never starts with q=', () => {
    const options = fc.record({ query: HOSTILE_STRING, category: HOSTILE_STRING, purity: HOSTILE_STRING, resolution: HOSTILE_STRING, ratio: HOSTILE_STRING, sorting: HOSTILE_STRING });
    const oneHostile = fc.tuple(options, fc.constantFrom('query', 'category', 'purity', 'resolution', 'ratio', 'sorting'));
    fc.assert(
      fc.property(oneHostile, ([values, hostile]) => {
        const pick = (name: keyof typeof values) => (name === hostile ? values[name] : null);
        const query = parseQuery(pick('query'));
        const categories = parseCategories(pick('category'));
        const purity = parsePurity(pick('purity'));
        const atleast = parseResolution(pick('resolution'));
        const ratio = parseRatio(pick('ratio'));
        if (!(query.ok && categories.ok && purity.ok && atleast.ok && ratio.ok)) return;
        const sorting = parseSorting(pick('sorting'), query.value !== undefined);
        if (!sorting.ok) return;
        const search = buildSearchQuery(
          {
            query: query.value,
            categories: categories.value,
            purity: { sfw: purity.value === 'sfw', sketchy: purity.value === 'sketchy', nsfw: purity.value === 'nsfw' },
            sorting: sorting.value,
            ...(atleast.value ? { atleast: atleast.value } : {}),
            ...(ratio.value ? { ratios: [ratio.value] } : {}),
            page: 1,
          },
          { apiKeyConfigured: true },
        );
        const url = wallhaven.url('/api/v1/search', search);
        expectInside(url, 'https://wallhaven.cc', '/api/v1/search');
        expect(url.search.startsWith('?q=')).toBe(false);
        if (query.value !== undefined) expect(url.searchParams.get('q')).toBe(query.value);
      }),
      { numRuns: RUNS },
    );
  });

  it('card names travel whole and only in the cardinfo.php query', () => {
    fc.assert(
      fc.property(HOSTILE_STRING, (name) => {
        const url = ygoprodeck.url('/api/v7/cardinfo.php', { name, misc: 'yes' });
        expectInside(url, 'https://db.ygoprodeck.com', '/api/v7/cardinfo.php');
        expect(url.searchParams.get('name')).toBe(name);
        expect([...url.searchParams.keys()]).toEqual(['name', 'misc']);
      }),
      { numRuns: RUNS },
    );
  });

  it('forged custom_ids are refused or decoded into state that encodes back within 100 characters', () => {
    const customId = fc.oneof(HOSTILE_STRING, HOSTILE_STRING.map((rest) => `wp:${rest}`), HOSTILE_STRING.map((rest) => `card:${rest}`));
    fc.assert(
      fc.property(customId, (id) => {
        const pager = decodePagerId(id);
        if (pager !== null) {
          const again = encodePagerId(pager);
          expect(again.length).toBeLessThanOrEqual(100);
          expect(decodePagerId(again)).toEqual(pager);
        }
        parseCardCustomId(id);
        parseCardSetCustomId(id);
      }),
      { numRuns: RUNS },
    );
  });

  it('inert and quoted text never carries a working link (masked or bare), a mention, a lone surrogate or too many characters', () => {
    // At most 1,000 characters, as Discord delivers options: discord.js's markdown escaping is
    // quadratic in a run of backticks (300 ms for 6,000 of them).
    fc.assert(
      fc.property(hostileUpTo(1_000), fc.integer({ min: 2, max: 300 }), (text, max) => {
        for (const shown of [inertText(text), quoteUserText(text)]) {
          // As if posted in public: a bare URL someone typed must not become a link either.
          expect(injectedLinks(shown, text, true)).toEqual([]);
          expect(shown).not.toMatch(/<[@#/:at]|@(everyone|here)/i);
          expect(hasLoneSurrogate(shown)).toBe(false);
        }
        expect(quoteUserText(text).length).toBeLessThanOrEqual(200);
        const cut = truncate(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(hasLoneSurrogate(cut)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
