import type { ChatInputContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { ipAnswersPrivately } from '../../src/settings/settings.js';
import { parseLookupList } from '../../src/ip/address-list.js';
import { renderNotes, renderRejectedEntries, renderTimeLine } from '../../src/render/ip.js';
import type { AppServices } from '../../src/app/services.js';

/** `/ip time address [public]`: one line with the local time at an address (a name's first address, named). */
export async function time(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = ctx.options.getString('address') ?? '';
  const ephemeral = ipAnswersPrivately(ctx.options.getBoolean('public'), ctx.settings.ipAnswers, false);
  const list = parseLookupList(input, 1);
  if (list.rejected.length > 0) throw new UserError((t) => renderRejectedEntries(list.rejected, [], t));
  if (list.skipped > 0) throw new UserError((t) => t.ip.giveOneAddress);
  if (list.targets.length === 0) throw new UserError((t) => t.ip.giveAddress);
  // A name's first address (its first A record, else its first AAAA), named in the answer.
  const share = app.memberShares.spenderFor(ctx.user.id, 'geojs');
  const outcome = await deferWhenSlow(ctx, app.ipLookup.locate(list.targets, { max: 1, reverse: false }, share), { ephemeral });
  const [result] = outcome.results;
  if (!result) throw new UserError((t) => renderNotes(outcome.notes, t).join('\n'));
  return renderTimeLine(result, app.clock.now(), ephemeral, messagesFor(ephemeral ? ctx.user.locale : ctx.settings.publicLocale));
}
