import { ButtonStyle, ComponentType, type APIButtonComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { embedCharacterCount, EMBED_LIMITS } from '../../src/render/format.js';
import { describeSearch, noResultsSentence, renderRandomWallpaper, renderSearchResult, renderWallpaperDetail, linkableWallhavenUrl } from '../../src/render/wallpaper.js';
import type { SearchSummary } from '../../src/wallpaper/search.js';
import type { WallpaperDetail, WallpaperSummary } from '../../src/wallpaper/wallpaper.js';

const summary: WallpaperSummary = {
  id: 'k7q9p1',
  pageUrl: 'https://wallhaven.cc/w/k7q9p1',
  shortUrl: 'https://whvn.cc/k7q9p1',
  views: 12_345,
  favorites: 678,
  source: 'https://en.wikipedia.org/wiki/Penguin_(disambiguation)',
  purity: 'sfw',
  category: 'general',
  width: 1920,
  height: 1080,
  resolution: '1920x1080',
  ratio: 1.78,
  fileSize: 2_202_009,
  fileType: 'image/jpeg',
  createdAt: new Date('2025-03-04T05:06:07Z'),
  colors: ['#424153', '#999999'],
  imageUrl: 'https://w.wallhaven.cc/full/k7/wallhaven-k7q9p1.jpg',
  thumbnails: { large: 'https://th.wallhaven.cc/lg/k7/k7q9p1.jpg', small: 'https://th.wallhaven.cc/small/k7/k7q9p1.jpg' },
};

const detail: WallpaperDetail = {
  ...summary,
  uploader: { username: 'Kōji_*', group: 'User', avatarUrl: 'https://wallhaven.cc/images/user/avatar/128/1.png' },
  tags: [
    { id: 1, name: 'penguins', aliases: [] },
    { id: 2, name: '*bold* [x](https://evil.example)', aliases: [] },
  ],
};

const search: SearchSummary = {
  query: 'penguins',
  categories: { general: true, anime: true, people: true },
  purity: 'sfw',
  sorting: 'relevance',
};

const buttons = { previousId: 'wp:p1', nextId: 'wp:n1', previousDisabled: true, nextDisabled: false };

function buttonsOf(reply: { components?: { components: unknown[] }[] }): APIButtonComponent[] {
  return (reply.components ?? []).flatMap((row) => row.components as APIButtonComponent[]);
}

describe('wallpaper renderers', () => {
  it('renders a search result: large thumbnail, facts, source link, pager and link buttons, footer n / total', () => {
    const reply = renderSearchResult({ item: summary, search, position: 1, total: 1_234, buttons });
    const embed = reply.embeds![0]!;
    expect(embed).toMatchSnapshot();
    expect(embed.image?.url).toBe('https://th.wallhaven.cc/lg/k7/k7q9p1.jpg');
    expect(embed.url).toBe('https://wallhaven.cc/w/k7q9p1');
    expect(embed.footer?.text).toBe('1 / 1,234');
    const field = (name: string) => embed.fields?.find((candidate) => candidate.name === name)?.value;
    expect(field('Resolution')).toBe('1920 × 1080');
    expect(field('File')).toBe('2.1 MiB · JPG');
    expect(field('Category')).toBe('General · SFW');
    expect(field('Views')).toBe('12,345');
    expect(field('Favourites')).toBe('678');
    expect(field('Colours')).toBe('`#424153` `#999999`');
    expect(field('Source')).toBe('[en.wikipedia.org](https://en.wikipedia.org/wiki/Penguin_%28disambiguation%29)');
    const [previous, next, similar, link] = buttonsOf(reply);
    expect(previous).toMatchObject({ style: ButtonStyle.Secondary, custom_id: 'wp:p1', label: '◀', disabled: true });
    expect(next).toMatchObject({ style: ButtonStyle.Secondary, custom_id: 'wp:n1', label: '▶', disabled: false });
    expect(similar).toMatchObject({ style: ButtonStyle.Primary, custom_id: 'wp:lk7q9p1', label: 'More like this' });
    expect(link).toMatchObject({ type: ComponentType.Button, style: ButtonStyle.Link, url: 'https://wallhaven.cc/w/k7q9p1' });
    expect(reply.content).toBeUndefined();
  });

  it('renders the detail with uploader, escaped tags, the full image and both links', () => {
    const reply = renderWallpaperDetail(detail);
    const embed = reply.embeds![0]!;
    expect(embed.image?.url).toBe('https://w.wallhaven.cc/full/k7/wallhaven-k7q9p1.jpg');
    expect(embed.author).toEqual({
      name: 'Uploaded by Kōji_*',
      url: 'https://wallhaven.cc/user/K%C5%8Dji_*',
      icon_url: 'https://wallhaven.cc/images/user/avatar/128/1.png',
    });
    const tags = embed.fields?.find((field) => field.name === 'Tags')?.value;
    expect(tags).toBe('penguins · \\*bold\\* \\[x](https:\u200b//evil.example)');
    expect(embed.footer?.text).toBe('whvn.cc/k7q9p1');
    expect(buttonsOf(reply).map((button) => ('url' in button ? button.url : 'custom_id' in button ? button.custom_id : undefined))).toEqual([
      'wp:lk7q9p1',
      // Uploads by the uploader, whose name goes in the id as Wallhaven spells it.
      'wp:uKōji_*',
      'https://wallhaven.cc/w/k7q9p1',
      'https://w.wallhaven.cc/full/k7/wallhaven-k7q9p1.jpg',
      'wp:tk7q9p1',
    ]);
    // The tag menu: names as they are (a menu label is not markdown), each value the tag's listing.
    const menu = reply.components![1]!.components[0] as { options: { label: string; value: string }[] };
    expect(menu.options).toEqual([
      { label: 'penguins', value: '1' },
      { label: '*bold* [x](https://evil.example)', value: '2' },
    ]);
  });

  it('lists as many tags as fit and counts the rest, within every embed limit', () => {
    const many: WallpaperDetail = {
      ...detail,
      source: `https://example.com/${'x'.repeat(600)}`,
      tags: Array.from({ length: 400 }, (_, index) => ({ id: index + 1, name: `tag number ${index} ${'w'.repeat(index % 40)}`, aliases: [] })),
    };
    const embed = renderWallpaperDetail(many).embeds![0]!;
    const tags = embed.fields!.find((field) => field.name === 'Tags')!.value;
    expect(tags.length).toBeLessThanOrEqual(EMBED_LIMITS.fieldValue);
    expect(tags).toMatch(/ · \+\d+ more$/);
    expect(tags).toContain('tag number 0');
    // A source URL too long for a link is shown as its host.
    expect(embed.fields!.find((field) => field.name === 'Source')!.value).toBe('example.com');
    expect(embedCharacterCount(embed)).toBeLessThanOrEqual(EMBED_LIMITS.total);
    for (const field of embed.fields!) expect(field.value.length).toBeLessThanOrEqual(EMBED_LIMITS.fieldValue);
  });

  it('never puts a non-Wallhaven or non-https URL in an image, the embed URL or a link button', () => {
    const hostile: WallpaperDetail = {
      ...detail,
      pageUrl: 'https://evil.example/w/k7q9p1',
      imageUrl: 'http://w.wallhaven.cc/full/k7/wallhaven-k7q9p1.jpg',
      thumbnails: { large: 'https://th.wallhaven.cc.evil.example/lg.jpg', original: 'javascript:alert(1)' },
      uploader: { username: 'x', avatarUrl: 'https://wallhaven.cc:8443/a.png' },
    };
    for (const reply of [
      renderWallpaperDetail(hostile),
      renderRandomWallpaper(hostile, null),
      renderSearchResult({ item: hostile, search, position: 1, total: 1, buttons }),
    ]) {
      const embed = reply.embeds![0]!;
      expect(embed.image).toBeUndefined();
      expect(embed.url).toBeUndefined();
      expect(embed.author?.icon_url).toBeUndefined();
      expect(buttonsOf(reply).filter((button) => button.style === ButtonStyle.Link)).toEqual([]);
    }
    expect(linkableWallhavenUrl('https://th.wallhaven.cc/lg/k7/k7q9p1.jpg')).toBe('https://th.wallhaven.cc/lg/k7/k7q9p1.jpg');
    expect(linkableWallhavenUrl('https://user:pw@wallhaven.cc/')).toBeUndefined();
  });

  it('shows a withheld result without its image or link, keeping the pager', () => {
    const reply = renderSearchResult({ item: { withheld: 'Not in this channel.' }, search, position: 3, total: 9, buttons, note: 'A note.' });
    const embed = reply.embeds![0]!;
    expect(embed.image).toBeUndefined();
    expect(embed.description).toContain('Not in this channel.');
    expect(embed.footer?.text).toBe('3 / 9');
    expect(reply.content).toBe('A note.');
    expect(buttonsOf(reply).map((button) => button.style)).toEqual([ButtonStyle.Secondary, ButtonStyle.Secondary]);
  });

  it('describes the search and escapes the query', () => {
    expect(describeSearch(search)).toBe('“penguins” · sorted by relevance');
    expect(
      describeSearch({
        query: '**loud** `code`',
        categories: { general: false, anime: true, people: true },
        purity: 'sketchy',
        sorting: 'date_added',
        ratio: '21x9',
        atleast: { width: 2560, height: 1080 },
      }),
    ).toBe('“\\*\\*loud\\*\\* \\`code\\`” · Anime + People · Sketchy · at least 2560×1080 · ratio 21x9 · sorted by newest');
    expect(describeSearch({ ...search, query: null, sorting: 'random' })).toBe('All wallpapers · sorted by random');
  });

  it('suggests how to broaden a search that found nothing', () => {
    expect(noResultsSentence({ ...search, categories: { general: false, anime: true, people: false }, atleast: { width: 7680, height: 4320 } })).toBe(
      'No wallpapers match “penguins” with these filters. Try fewer or more general words, all categories, a smaller minimum resolution.',
    );
    expect(noResultsSentence({ ...search, query: null })).toBe('No wallpapers match these filters. Try a broader search.');
  });
});
