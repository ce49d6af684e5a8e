import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { card } from '../../../commands/card/index.js';
import { subscribe } from '../../../commands/subscribe/index.js';
import { cardLanguageFor } from '../../../src/cards/user-language.js';

function subcommand(name: string): APIApplicationCommandOption[] {
  const sub = card.data.options?.find((option) => option.name === name);
  expect(sub?.type).toBe(ApplicationCommandOptionType.Subcommand);
  return (sub as { options?: APIApplicationCommandOption[] }).options ?? [];
}

describe('/card definition', () => {
  it('has show, search, price, art, random, set and banlist, within Discord’s limits on names, descriptions and choices', () => {
    expect(card.data.name).toBe('card');
    expect(card.componentPrefix).toBe('card');
    expect(card.data.options?.map((option) => option.name)).toEqual(['show', 'search', 'price', 'art', 'random', 'set', 'banlist']);
    const everyOption = [card.data, ...(card.data.options ?? []), ...['show', 'search', 'price', 'art', 'random', 'set', 'banlist'].flatMap(subcommand)];
    for (const option of everyOption) {
      expect(option.name).toMatch(/^[a-z-]{1,32}$/);
      expect(option.description.length).toBeGreaterThan(0);
      expect(option.description.length).toBeLessThanOrEqual(100);
      const choices = (option as { choices?: { name: string; value: string }[] }).choices ?? [];
      expect(choices.length).toBeLessThanOrEqual(25);
      for (const choice of choices) expect(choice.name.length).toBeLessThanOrEqual(100);
    }
  });

  it('autocompletes the card name, bounded to 100 characters, and offers every card language', () => {
    const [name, language] = subcommand('show') as [APIApplicationCommandOption & { max_length?: number; autocomplete?: boolean }, APIApplicationCommandOption & { choices?: { value: string }[] }];
    expect(name).toMatchObject({ name: 'name', required: true, autocomplete: true, max_length: 100 });
    expect(language.choices?.map((choice) => choice.value)).toEqual(['en', 'fr', 'de', 'it', 'pt']);
  });

  it('autocompletes the set name or code, bounded to 100 characters', () => {
    expect(subcommand('set')).toEqual([expect.objectContaining({ name: 'name', required: true, autocomplete: true, max_length: 100 })]);
  });

  it('offers the type, attribute, level and format filters to search and random, the archetype by autocomplete, and an optional query', () => {
    type Option = APIApplicationCommandOption & { choices?: { value: string }[]; autocomplete?: boolean; required?: boolean; min_value?: number; max_value?: number };
    const random = subcommand('random') as Option[];
    expect(random.map((option) => option.name)).toEqual(['type', 'attribute', 'archetype', 'level', 'format']);
    expect([random[3]!.min_value, random[3]!.max_value]).toEqual([0, 13]);
    expect(random[4]!.choices?.map((choice) => choice.value)).toEqual(['tcg', 'ocg', 'goat', 'masterduel', 'speedduel', 'duellinks']);
    const options = subcommand('search') as Option[];
    expect(options.map((option) => option.name)).toEqual(['query', 'type', 'attribute', 'archetype', 'level', 'format', 'text', 'race', 'atk', 'def', 'banned', 'released', 'link', 'scale']);
    expect(options[7]!.autocomplete).toBe(true);
    expect(options[10]!.choices?.map((choice) => choice.value)).toEqual(['forbidden', 'limited', 'semi-limited']);
    expect((options[0] as { description?: string }).description).toContain('atk>=2500 race:dragon "destroy all"');
    expect(options[0]!.required).toBeFalsy();
    expect(options[1]!.choices?.map((choice) => choice.value)).toEqual(expect.arrayContaining(['link', 'pendulum', 'spell', 'trap', 'token', 'skill']));
    expect(options[2]!.choices?.map((choice) => choice.value)).toEqual(['DARK', 'DIVINE', 'EARTH', 'FIRE', 'LIGHT', 'WATER', 'WIND']);
    expect(options[3]!.autocomplete).toBe(true);
  });
});

describe('ban-list formats', () => {
  it('offers Genesys beside the ban lists, to /card banlist and /subscribe banlist alike', () => {
    const formatsOf = (options: readonly APIApplicationCommandOption[]) =>
      (options.find((option) => option.name === 'format') as { choices?: { name: string; value: string }[] }).choices?.map((choice) => [choice.value, choice.name]);
    const expected = [['tcg', 'TCG'], ['ocg', 'OCG'], ['goat', 'GOAT'], ['masterduel', 'Master Duel'], ['genesys', 'Genesys']];
    expect(formatsOf(subcommand('banlist'))).toEqual(expected);
    const subscribeBanlist = subscribe.data.options?.find((option) => option.name === 'banlist') as { options?: APIApplicationCommandOption[] };
    expect(formatsOf(subscribeBanlist.options ?? [])).toEqual(expected);
  });
});

describe('card text language', () => {
  it.each([
    [null, 'fr', 'fr'],
    [null, 'de', 'de'],
    [null, 'it', 'it'],
    [null, 'pt-BR', 'pt'],
    [null, 'en-US', undefined],
    [null, 'ja', undefined],
    [null, 'es-ES', undefined],
    ['de', 'fr', 'de'],
    ['en', 'fr', undefined],
  ] as const)('option %s with locale %s → %s', (option, locale, expected) => {
    expect(cardLanguageFor(option, locale)).toBe(expected);
  });
});
