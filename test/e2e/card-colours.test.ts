import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FinalMessage } from '../fakes/discord.js';
import { startFakeWallhaven, type FakeWallhaven } from '../fakes/wallhaven.js';
import { startFakeYgoprodeck, type FakeYgoprodeck } from '../fakes/ygoprodeck.js';
import { CANARY_WALLHAVEN_KEY, startTestBot, type TestBot } from '../helpers/bot.js';
import { buttonCustomId, newMessageFrom } from '../helpers/components.js';

/**
 * "Wallpapers in these colours" under `/card art`, end to end: the artwork (a stored JPEG of a known
 * red) is read locally, its colour matched to Wallhaven's `cc0000`, and a listing opened for whoever
 * pressed: the card's archetype in that colour when Wallhaven has any, else the colour alone. No
 * Wallhaven request before the press, two at most after it.
 */

const OWNER = { id: '1356000000000000200', username: 'tester' };
const SOMEONE_ELSE = { id: '1356000000000000777', username: 'someone-else' };
const LABEL = 'Wallpapers in these colours';

const paramsOf = (request: { query: URLSearchParams }) => Object.fromEntries(request.query.entries());

describe('/card art: wallpapers in the artwork’s colours', () => {
  let ygoprodeck: FakeYgoprodeck;
  let wallhaven: FakeWallhaven;
  let bot: TestBot;

  beforeAll(async () => {
    ygoprodeck = await startFakeYgoprodeck();
    ygoprodeck.decodableArt = await sharp({ create: { width: 168, height: 246, channels: 3, background: { r: 204, g: 0, b: 0 } } }).jpeg().toBuffer();
    wallhaven = await startFakeWallhaven({ apiKey: CANARY_WALLHAVEN_KEY });
    bot = await startTestBot({
      cardSnapshot: { cards: ygoprodeck.cards, version: ygoprodeck.version },
      env: { YGOPRODECK_URL: ygoprodeck.url, YGOPRODECK_IMAGES_URL: ygoprodeck.imagesUrl, WALLHAVEN_URL: wallhaven.url, WALLHAVEN_API_KEY: CANARY_WALLHAVEN_KEY },
    });
    expect(await bot.app.services.cards.whenReady(30_000)).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await bot?.stop();
    await ygoprodeck?.close();
    await wallhaven?.close();
  });

  beforeEach(() => wallhaven.reset());

  async function cardArt(name: string): Promise<FinalMessage> {
    const shown = await (await bot.discord.chatInput({ name: 'card', subcommand: 'art', options: { name }, user: OWNER })).final();
    expect(shown.files).toHaveLength(1);
    return shown;
  }

  const press = async (message: FinalMessage, user = SOMEONE_ELSE) => newMessageFrom(await bot.discord.button({ customId: buttonCustomId(message, LABEL), message, user }));

  it('an archetype Wallhaven has nothing for: the archetype in red, then red alone, two requests; none before the press', async () => {
    const card = ygoprodeck.cards.find((candidate) => typeof candidate.archetype === 'string' && /^[A-Za-z]+[ -][A-Za-z -]*$/.test(candidate.archetype))!;
    const art = await cardArt(card.name);
    expect(wallhaven.requests).toHaveLength(0);
    const listing = await press(art);
    expect(listing.ephemeral).toBe(false);
    expect(listing.embeds[0]!.description).toBe('All wallpapers · colour Red · sorted by newest');
    const searches = wallhaven.requestsTo('/api/v1/search');
    expect(searches.map(paramsOf)).toEqual([
      { categories: '111', purity: '100', sorting: 'relevance', q: card.archetype, colors: 'cc0000', page: '1' },
      { categories: '111', purity: '100', sorting: 'date_added', colors: 'cc0000', page: '1' },
    ]);
    expect(wallhaven.requests).toHaveLength(2);
    // The listing is the presser's: they page it, the member who ran /card art cannot.
    const refused = await (await bot.discord.button({ customId: buttonCustomId(listing, '▶'), message: listing, user: OWNER })).final();
    expect(refused.ephemeral).toBe(true);
  });

  it('an archetype Wallhaven has wallpapers for: one request, the archetype in red', async () => {
    const card = ygoprodeck.cards.find((candidate) => typeof candidate.archetype === 'string' && /^[A-Za-z]+$/.test(candidate.archetype))!;
    const red = wallhaven.catalogue.filter((w) => w.purity === 'sfw' && w.colors.includes('#cc0000'));
    red[0]!.tags.push({ ...red[0]!.tags[0]!, id: 900, name: card.archetype!.toLowerCase(), alias: '' });
    const listing = await press(await cardArt(card.name));
    expect(listing.embeds[0]!.title).toBe(`Wallpaper ${red[0]!.id}`);
    expect(listing.embeds[0]!.description).toBe(`“${card.archetype}” · colour Red · sorted by relevance`);
    expect(wallhaven.requestsTo('/api/v1/search').map(paramsOf)).toEqual([{ categories: '111', purity: '100', sorting: 'relevance', q: card.archetype, colors: 'cc0000', page: '1' }]);
  });

  it('a card without an archetype: its colour alone (here blue), one request', async () => {
    // Another card's art is another stored image: this one blue, so no listing of red is cached.
    ygoprodeck.decodableArt = await sharp({ create: { width: 168, height: 246, channels: 3, background: { r: 10, g: 100, b: 200 } } }).jpeg().toBuffer();
    const card = ygoprodeck.cards.find((candidate) => candidate.archetype == null && candidate.type.includes('Monster'))!;
    const listing = await press(await cardArt(card.name));
    expect(listing.embeds[0]!.description).toBe('All wallpapers · colour Blue · sorted by newest');
    expect(wallhaven.requestsTo('/api/v1/search').map(paramsOf)).toEqual([{ categories: '111', purity: '100', sorting: 'date_added', colors: '0066cc', page: '1' }]);
  });
});
