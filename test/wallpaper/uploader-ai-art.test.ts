import fc from 'fast-check';
import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { registeredCommands } from '../../commands/index.js';
import { en } from '../../src/i18n/en.js';
import { parseUploadsById, uploadsById } from '../../src/wallpaper/component-ids.js';
import { parseAiArt, readSearchOptions, uploaderQuery } from '../../src/wallpaper/search-options.js';
import { buildSearchQuery } from '../../src/wallpaper/wallhaven-query.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const options = (values: Record<string, string>) => ({ getString: (name: string) => values[name] ?? null });
const reasonOf = (result: { ok: boolean; reason?: unknown }) => (typeof result.reason === 'function' ? result.reason(en) : result.reason);

describe('/wallpaper uploader', () => {
  it('sends q=@name for an uploader, and refuses it together with a query', () => {
    const search = readSearchOptions(options({ uploader: '@Someone_1' }));
    expect(search.ok && search.value.query).toBe('@Someone_1');
    const both = readSearchOptions(options({ uploader: 'someone', query: 'mountains' }));
    expect(both.ok).toBe(false);
    expect(reasonOf(both as { ok: false; reason: unknown })).toBe(en.wallpaper.uploaderWithQuery);
  });

  it('refuses hostile names before anything is built from them', () => {
    for (const name of ['@../x', '../x', 'a'.repeat(300), '@', '@@x', 'a b', 'a?b', 'a#b', 'a%2F', 'a:b', '..']) {
      const result = uploaderQuery(name);
      expect(result.ok, name).toBe(false);
      expect(uploadsById(name), name).toBeNull();
    }
  });

  it('reads back every uploads button it makes, and nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const id = uploadsById(text);
        if (id !== null) {
          expect(id.length).toBeLessThanOrEqual(100);
          expect(parseUploadsById(id)).toBe(text);
        }
        const parsed = parseUploadsById(`wp:u${text}`);
        if (parsed !== null) expect(uploaderQuery(parsed)).toEqual({ ok: true, value: `@${parsed}` });
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});

describe('/wallpaper ai-art', () => {
  const base = { categories: { general: true, anime: true, people: true }, purity: { sfw: true, sketchy: false, nsfw: false }, sorting: 'date_added' as const, page: 1 };

  it('maps the choice to ai_art_filter, and sends nothing without one', () => {
    expect(buildSearchQuery({ ...base, aiArt: 'exclude' }, { apiKeyConfigured: false }).ai_art_filter).toBe('1');
    expect(buildSearchQuery({ ...base, aiArt: 'include' }, { apiKeyConfigured: false }).ai_art_filter).toBe('0');
    expect(buildSearchQuery(base, { apiKeyConfigured: false })).not.toHaveProperty('ai_art_filter');
  });

  it('is read only when the operator turned it on', () => {
    expect(parseAiArt('exclude', true)).toEqual({ ok: true, value: 'exclude' });
    expect(parseAiArt('exclude', false)).toEqual({ ok: true, value: undefined });
    expect(parseAiArt('maybe', true).ok).toBe(false);
    const on = readSearchOptions(options({ 'ai-art': 'include' }), { aiArt: true });
    expect(on.ok && on.value.search.aiArt).toBe('include');
    const off = readSearchOptions(options({ 'ai-art': 'include' }));
    expect(off.ok && off.value.search.aiArt).toBeUndefined();
  });

  it('is registered only with WALLHAVEN_AI_FILTER=true', () => {
    const aiArtOptions = (on: boolean) =>
      registeredCommands({ wallhavenAiFilter: on })
        .flatMap((command) => (command.data.name === 'wallpaper' && 'options' in command.data ? (command.data.options ?? []) : []))
        .flatMap((sub) => (sub.type === ApplicationCommandOptionType.Subcommand ? (sub.options ?? []).map((option) => `${sub.name} ${option.name}`) : []))
        .filter((name) => name.endsWith(' ai-art'));
    expect(aiArtOptions(true)).toEqual(['search ai-art', 'random ai-art']);
    expect(aiArtOptions(false)).toEqual([]);
  });
});
