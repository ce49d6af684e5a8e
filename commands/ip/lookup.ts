import type { ChatInputContext } from '../../src/interaction/context.js';
import { deferWhenSlow } from '../../src/interaction/deferral.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { ipAnswersPrivately } from '../../src/settings/settings.js';
import { MAX_ADDRESSES, MAX_ENTRIES, parseLookupList } from '../../src/ip/address-list.js';
import { renderLookup, renderNotes, renderRejectedEntries } from '../../src/render/ip.js';
import type { AppServices } from '../../src/app/services.js';
import { lookupMap } from './lookup-map.js';

/**
 * `/ip lookup addresses [public]`: 1–10 entries resolved and located, with their reverse names;
 * each name resolved and each address sent to GeoJS is spent from the member's share.
 */
export async function lookup(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const input = ctx.options.getString('addresses') ?? '';
  // Ephemeral unless asked or the server chose otherwise: a location is personal data.
  const ephemeral = ipAnswersPrivately(ctx.options.getBoolean('public'), ctx.settings.ipAnswers, true);
  const list = parseLookupList(input);
  if (list.rejected.length > 0) throw new UserError((t) => renderRejectedEntries(list.rejected, [], t));
  if (list.skipped > 0) throw new UserError((t) => t.ip.tooMany(list.targets.length + list.skipped, MAX_ENTRIES));
  if (list.targets.length === 0) throw new UserError((t) => t.ip.giveAddresses);
  const share = app.memberShares.spenderFor(ctx.user.id, 'geojs');
  const outcome = await deferWhenSlow(ctx, app.ipLookup.locate(list.targets, { max: MAX_ADDRESSES, reverse: true }, share), { ephemeral });
  if (outcome.results.length === 0) throw new UserError((t) => renderNotes(outcome.notes, t).join('\n'));
  const map = await lookupMap(outcome.results, app, ctx.appPermissions);
  return renderLookup({ ...outcome, now: app.clock.now(), ephemeral, map, messages: messagesFor(ephemeral ? ctx.user.locale : ctx.settings.publicLocale) });
}
