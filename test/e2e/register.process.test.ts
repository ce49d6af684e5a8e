import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../fakes/discord.js';
import { CANARY_TOKEN } from '../helpers/bot.js';
import { runEntryPoint } from '../helpers/run-script.js';

interface RegisteredCommand {
  name: string;
  type?: number;
  required?: boolean;
  integration_types?: number[];
  contexts?: number[];
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: RegisteredCommand[];
  choices?: { value: string; name_localizations?: Record<string, string> }[];
}

describe('npm run register', () => {
  let discord: FakeDiscord | undefined;
  afterEach(async () => {
    await discord?.close();
    discord = undefined;
  });

  it('publishes integration types, contexts and fr/de/it/pt-BR localizations in one PUT', async () => {
    discord = await startFakeDiscord({ token: CANARY_TOKEN });
    const result = await runEntryPoint('src/register.ts', [], { DISCORD_TOKEN: CANARY_TOKEN, DISCORD_API_URL: discord.apiUrl });
    expect(result.code).toBe(0);
    const puts = discord.calls.filter((call) => call.method === 'PUT');
    expect(puts).toHaveLength(1);
    const body = puts[0]!.json as RegisteredCommand[];
    const byName = new Map(body.map((command) => [command.name, command]));

    for (const name of ['card', 'ip', 'wallpaper', 'Locate IP addresses', 'deck', 'Read deck']) {
      expect(byName.get(name)?.integration_types, name).toEqual([0, 1]);
      expect(byName.get(name)?.contexts, name).toEqual([0, 1, 2]);
    }
    expect(byName.get('status')?.integration_types).toEqual([0]);
    expect(byName.get('status')?.contexts).toEqual([0]);

    const card = byName.get('card')!;
    expect(card.name_localizations).toEqual({ fr: 'carte', de: 'karte', it: 'carta', 'pt-BR': 'carta' });
    expect(card.description_localizations?.fr).toBe('Recherche de cartes Yu-Gi-Oh!');
    const show = card.options!.find((option) => option.name === 'show')!;
    expect(show.name_localizations?.de).toBe('zeigen');
    const language = show.options!.find((option) => option.name === 'language')!;
    expect(language.choices!.find((choice) => choice.value === 'fr')?.name_localizations?.['pt-BR']).toBe('Francês');
    expect(byName.get('Locate IP addresses')?.name_localizations?.it).toBe('Localizza indirizzi IP');
    expect(byName.get('Read deck')?.name_localizations?.fr).toBe('Lire le deck');
    const deckShow = byName.get('deck')!.options!.find((option) => option.name === 'show')!;
    expect(deckShow.options!.map((option) => [option.name, option.type, option.required ?? false])).toEqual([
      ['url', 3, false],
      ['file', 11, false],
      ['public', 5, false],
      ['points-cap', 4, false],
    ]);
  });
});
