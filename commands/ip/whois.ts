import type { AppServices } from '../../src/app/services.js';
import type { ChatInputContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { parseWhoisQuery } from '../../src/ip/whois-query.js';
import { renderRdap, renderWhoisProblem, whoisSubject } from '../../src/render/rdap.js';

/**
 * `/ip whois query`: the registration of an address, an AS number or a domain over RDAP, privately
 * (what a member investigates is theirs). A question not answered in the last day is spent from
 * the member's RDAP share.
 */
export async function whois(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const parsed = parseWhoisQuery(ctx.options.getString('query') ?? '');
  if (!parsed.ok) throw new UserError((t) => renderWhoisProblem(parsed.problem, t));
  const subject = whoisSubject(parsed.query);
  const share = app.memberShares.spenderFor(ctx.user.id, 'rdap');
  const found = await deferWhenSlow(ctx, app.rdap.find(parsed.query, share), { ephemeral: true });
  if (found === null) throw new UserError((t) => t.ops.whois.notRegistered(subject));
  return renderRdap(found, subject, true, messagesFor(ctx.user.locale));
}
