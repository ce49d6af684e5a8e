import type { AppServices } from '../../src/app/services.js';
import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { presentationFor, privateAnswer, updateDeferral } from '../../src/interaction/presentation.js';
import { parseDigRefreshId, parseDigRefreshText } from '../../src/ip/dig-query.js';
import { answerDig } from './dig.js';

/** The **Refresh** button under a `/ip dig` answer: the same question asked again, the answer replaced in place. */
export async function refreshDig(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const t = presentationFor(ctx).messages;
  const key = parseDigRefreshId(ctx.customId);
  const text = key === null ? undefined : await app.state.longQueries.recall(key);
  const stored = text === undefined ? null : parseDigRefreshText(text);
  if (stored === null || !app.dig.resolverNames().includes(stored.resolver)) return privateAnswer(t.ops.dig.forgotten);
  return { update: await deferWhenSlow(updateDeferral(ctx), answerDig(stored.question, stored.resolver, app, t), { ephemeral: true }) };
}
