import type { AppServices } from '../../src/app/services.js';
import type { ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { presentationFor, privateAnswer, updateDeferral } from '../../src/interaction/presentation.js';
import { parseOwnerButtonId } from '../../src/ip/whois-query.js';
import { renderRdap } from '../../src/render/rdap.js';

/**
 * The registration button under `/ip lookup` and Locate IP (one per public address): its network
 * and abuse contact, in a reply only the presser sees, spent from the presser's RDAP share.
 */
export async function answerOwner(ctx: ComponentContext, app: AppServices): Promise<ComponentResult> {
  const t = presentationFor(ctx).messages;
  const parsed = parseOwnerButtonId(ctx.customId);
  if (parsed === null || !parsed.ok || parsed.query.kind !== 'ip') return privateAnswer(t.errors.buttonsExpired);
  const { address } = parsed.query;
  const share = app.memberShares.spenderFor(ctx.user.id, 'rdap');
  const found = await deferWhenSlow(updateDeferral(ctx), app.rdap.find(parsed.query, share), { ephemeral: true });
  if (found === null) return privateAnswer(t.ops.whois.notRegistered(address));
  return { reply: renderRdap(found, address, true, t) };
}
