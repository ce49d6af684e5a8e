import type { AppServices } from '../../src/app/services.js';
import type { Catalogue } from '../../src/i18n/catalogue.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { digRefreshId, digRefreshText, parseDigQuestion, SYSTEM_RESOLVER, type DigQuestion } from '../../src/ip/dig-query.js';
import { renderDig, renderDigProblem } from '../../src/render/dig.js';

/**
 * `/ip dig name [type] [resolver]`: one DNS question, asked on the wire of the configured servers or
 * a DNS-over-HTTPS resolver, answered with TTLs and flags and a Refresh button. The name is
 * validated (local names, private addresses refused) before any query; 40 queries at most.
 */
export async function dig(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const parsed = parseDigQuestion(ctx.options.getString('name') ?? '', ctx.options.getString('type'));
  if (!parsed.ok) throw new UserError((t) => renderDigProblem(parsed.problem, t));
  const resolver = ctx.options.getString('resolver')?.trim().toLowerCase() || SYSTEM_RESOLVER;
  const names = app.dig.resolverNames();
  if (!names.includes(resolver)) throw new UserError((t) => t.ops.dig.unknownResolver(names.join(', ')));
  return deferWhenSlow(ctx, answerDig(parsed.question, resolver, app, messagesFor(ctx.user.locale)), { ephemeral: true });
}

/** Asks and renders; the question is stored for the Refresh button (`dig-refresh.ts`). */
export async function answerDig(question: DigQuestion, resolver: string, app: AppServices, messages: Catalogue): Promise<Reply> {
  const outcome = await app.dig.ask(question, resolver);
  if (!outcome.ok) throw new UserError((t) => t.ops.dig.noAnswer(t.ip.failures[outcome.failure]));
  const key = await app.state.longQueries.remember(digRefreshText(question, resolver));
  return renderDig({ question, resolver, answer: outcome.answer, refreshId: digRefreshId(key), askedAt: app.clock.now(), messages });
}
