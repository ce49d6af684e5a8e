import type { AppServices } from '../../src/app/services.js';
import type { AutocompleteChoice, AutocompleteContext } from '../../src/interaction/context.js';

/** `/ip dig`'s `resolver` choices: the configured servers (`system`) and each `DOH_RESOLVERS` name, as typed narrows them. */
export async function digResolvers(ctx: AutocompleteContext, app: AppServices): Promise<AutocompleteChoice[]> {
  const typed = ctx.focused.value.trim().toLowerCase();
  return app.dig
    .resolverNames()
    .filter((name) => name.includes(typed))
    .slice(0, 25)
    .map((name) => ({ name, value: name }));
}
