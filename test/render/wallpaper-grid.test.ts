import { ComponentType, type APIContainerComponent, type APIMediaGalleryComponent, type APIStringSelectComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { renderGrid } from '../../src/render/wallpaper-grid.js';
import type { PagerSearch } from '../../src/wallpaper/pager-state.js';
import type { WallpaperPurity } from '../../src/wallpaper/wallpaper.js';
import { item } from '../helpers/wallpaper-fixtures.js';
import { componentPayloadError } from '../fakes/discord-components.js';

/** A grid's payload: what Discord accepts, and what it never shows where it may not. */

const wallpaper = (at: number, purity: WallpaperPurity = 'sfw') => item(`abc${String(at).padStart(3, '0')}`, purity);

const search: PagerSearch = { categories: { general: true, anime: true, people: true }, purity: 'sfw+sketchy', sorting: 'date_added', query: { kind: 'none' } };

function grid(purities: WallpaperPurity[], channel: { kind: 'guild'; ageRestricted: boolean }) {
  const items = purities.map((purity, at) => ({ index: 10 + at, item: wallpaper(10 + at, purity) }));
  return renderGrid({
    search,
    query: undefined,
    located: { start: 10, items, page: { items: [], page: 1, lastPage: 2, total: 40, perPage: 24, seed: null, query: null }, pageSize: 24, hasNext: true },
    lastActivityMs: Date.UTC(2026, 0, 1),
    channel,
    nsfwAvailable: true,
    expired: false,
    messages: en,
  });
}

const inside = (reply: ReturnType<typeof grid>) => (reply.layout![0] as APIContainerComponent).components;

describe('renderGrid', () => {
  it('is a Components V2 layout Discord accepts: ten thumbnails numbered 11–20, a menu, ◀ ▶', () => {
    const reply = grid(Array<WallpaperPurity>(10).fill('sfw'), { kind: 'guild', ageRestricted: false });
    expect(reply.content).toBeUndefined();
    expect(reply.embeds).toBeUndefined();
    expect(componentPayloadError({ components: reply.layout }, 1 << 15)).toBeUndefined();
    const gallery = inside(reply).find((c): c is APIMediaGalleryComponent => c.type === ComponentType.MediaGallery)!;
    expect(gallery.items.map((item) => item.description)).toEqual(Array.from({ length: 10 }, (_, at) => `${11 + at}. abc${String(10 + at).padStart(3, '0')}`));
    expect(inside(reply)[0]).toMatchObject({ content: 'All wallpapers · SFW + Sketchy · sorted by newest\n11–20 of 40' });
    const menu = inside(reply).flatMap((c) => (c.type === ComponentType.ActionRow ? c.components : [])).find((c): c is APIStringSelectComponent => c.type === ComponentType.StringSelect)!;
    expect(menu.options.map((option) => option.value)).toEqual(Array.from({ length: 10 }, (_, at) => String(10 + at)));
  });

  it('never shows a sketchy result outside an age-restricted channel, even when Wallhaven sends one', () => {
    const purities: WallpaperPurity[] = ['sfw', 'sketchy', 'sfw', 'nsfw', 'sfw', 'sfw', 'sfw', 'sfw', 'sfw', 'sketchy'];
    const reply = grid(purities, { kind: 'guild', ageRestricted: false });
    const serialised = JSON.stringify(reply);
    for (const at of [1, 3, 9]) expect(serialised).not.toContain(`abc${String(10 + at).padStart(3, '0')}`);
    expect(inside(reply)[0]).toMatchObject({ content: expect.stringContaining(en.wallpaperGrid.withheld(3)) });
    expect(componentPayloadError({ components: reply.layout }, 1 << 15)).toBeUndefined();
    // In an age-restricted channel the same answer shows all ten.
    const restricted = grid(purities, { kind: 'guild', ageRestricted: true });
    expect((inside(restricted).find((c) => c.type === ComponentType.MediaGallery) as APIMediaGalleryComponent).items).toHaveLength(10);
  });

  it('leaves out the gallery and the menu, which Discord refuses empty, when nothing can be shown', () => {
    const reply = grid(['sketchy', 'sketchy'], { kind: 'guild', ageRestricted: false });
    expect(inside(reply).map((c) => c.type)).toEqual([ComponentType.TextDisplay, ComponentType.ActionRow]);
    expect(componentPayloadError({ components: reply.layout }, 1 << 15)).toBeUndefined();
  });
});

describe('the fake Discord’s component check', () => {
  const gallery = (count: number) => ({ type: ComponentType.MediaGallery, items: Array.from({ length: count }, () => ({ media: { url: 'https://th.wallhaven.cc/lg/a.jpg' } })) });

  it('refuses what Discord refuses', () => {
    const v2 = 1 << 15;
    expect(componentPayloadError({ components: [gallery(10)] }, v2)).toBeUndefined();
    expect(componentPayloadError({ components: [gallery(11)] }, v2)).toMatch(/1–10 items/);
    expect(componentPayloadError({ components: [gallery(0)] }, v2)).toMatch(/1–10 items/);
    expect(componentPayloadError({ components: [gallery(1)], content: 'hi' }, v2)).toMatch(/content/);
    expect(componentPayloadError({ components: [gallery(1)], embeds: [] }, v2)).toMatch(/embeds/);
    expect(componentPayloadError({ components: [gallery(1)] }, 0)).toMatch(/type 12 not allowed/);
    const text = { type: ComponentType.TextDisplay, content: 'x' };
    expect(componentPayloadError({ components: Array(40).fill(text) }, v2)).toBeUndefined();
    expect(componentPayloadError({ components: Array(41).fill(text) }, v2)).toMatch(/41 components/);
    const button = (id: string) => ({ type: ComponentType.Button, style: 2, custom_id: id, label: 'x' });
    const row = (...components: object[]) => ({ type: ComponentType.ActionRow, components });
    expect(componentPayloadError({ components: [row(button('x'.repeat(100)))] }, 0)).toBeUndefined();
    expect(componentPayloadError({ components: [row(button('x'.repeat(101)))] }, 0)).toMatch(/custom_id/);
    expect(componentPayloadError({ components: [row(button('a'), button('a'))] }, 0)).toMatch(/twice/);
    expect(componentPayloadError({ components: [row(button('a'), button('b'), button('c'), button('d'), button('e'), button('f'))] }, 0)).toMatch(/6 buttons/);
    expect(componentPayloadError({ components: Array.from({ length: 6 }, (_, at) => row(button(String(at)))) }, 0)).toMatch(/6 action rows/);
    expect(componentPayloadError({ components: [{ type: ComponentType.Container, components: [{ type: ComponentType.Container, components: [text] }] }] }, v2)).toMatch(/type 17 not allowed/);
  });
});
