import { banlistFormatOf, type ListFormat } from '../../src/cards/banlist.js';
import type { ChatInputContext, ComponentContext, ComponentResult } from '../../src/interaction/context.js';
import { UserError } from '../../src/interaction/errors.js';
import { presentationFor, turnedPage } from '../../src/interaction/presentation.js';
import type { Reply } from '../../src/interaction/reply.js';
import { renderBanlistChanges, renderBanlistKeepingSince, renderBanlistPage } from '../../src/render/banlist.js';
import type { AppServices } from '../../src/app/services.js';

/** `/card banlist format [changes]`: the format's current list, ◀ ▶ paged, or what changed in it last. */
export async function showBanlist(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const format = banlistFormatOf(ctx.options.getString('format'));
  if (format === undefined) throw new UserError((t) => t.subscribe.noSuchFormat);
  const messages = presentationFor(ctx).messages;
  if (ctx.options.getBoolean('changes') !== true) return listPage(app, format, 0, messages);
  const history = await feedOf(app).history(format);
  if (history.kind === 'none') throw new UserError((t) => t.banlist.noneYet);
  if (history.kind === 'keeping-since') return renderBanlistKeepingSince(format, history.since, messages);
  return renderBanlistChanges(format, history.before, history.after, history.changes, messages);
}

/** ◀ ▶ under a list: its owner turns the page in place; anyone else gets the page in a reply of their own. */
export async function turnBanlistPage(ctx: ComponentContext, app: AppServices, format: ListFormat, page: number): Promise<ComponentResult> {
  return turnedPage(ctx, await listPage(app, format, page, presentationFor(ctx).messages));
}

async function listPage(app: AppServices, format: ListFormat, page: number, messages: ReturnType<typeof presentationFor>['messages']): Promise<Reply> {
  const current = await feedOf(app).current(format);
  if (current.kind === 'none') throw new UserError((t) => t.banlist.noneYet);
  return renderBanlistPage(format, current.list, page, messages);
}

function feedOf(app: AppServices): NonNullable<AppServices['banlists']> {
  if (app.banlists === undefined) throw new UserError((t) => t.banlist.unavailable);
  return app.banlists;
}
