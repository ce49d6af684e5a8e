import type { AutocompleteChoice, AutocompleteContext } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { truncate } from '../../src/render/format.js';
import { timeZoneChoices } from '../../src/schedule/time-of-day.js';
import type { AppServices } from '../../src/app/services.js';
import { describeSubscription, targetOf } from './shared.js';

const MAX_CHOICES = 25;
const MAX_CHOICE_CHARS = 100;

/**
 * `timezone`: IANA zones containing what was typed; `subscription`: the channel's subscriptions (only
 * for members who may remove them); `archetype`: the card database's. Local only, never a wait.
 */
export async function subscribeAutocomplete(ctx: AutocompleteContext, app: AppServices): Promise<AutocompleteChoice[]> {
  const { name, value } = ctx.focused;
  if (name === 'timezone') return timeZoneChoices(value, MAX_CHOICES).map((zone) => ({ name: zone, value: zone }));
  if (name === 'archetype') {
    return app.cards
      .archetypes(value, MAX_CHOICES)
      .filter((archetype) => archetype.length <= MAX_CHOICE_CHARS)
      .map((archetype) => ({ name: archetype, value: archetype }));
  }
  if (name !== 'subscription') return [];
  let target;
  try {
    target = targetOf(ctx, app);
  } catch (error) {
    if (error instanceof UserError) return [];
    throw error;
  }
  const messages = messagesFor(ctx.user.locale);
  const needle = value.trim().toLowerCase().slice(0, MAX_CHOICE_CHARS);
  return (await target.subscriptions.list(target.channelId))
    .map((view) => ({ name: truncate(describeSubscription(view, messages), MAX_CHOICE_CHARS), value: String(view.id) }))
    .filter((choice) => choice.name.toLowerCase().includes(needle))
    .slice(0, MAX_CHOICES);
}
