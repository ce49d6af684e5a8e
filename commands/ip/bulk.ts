import type { AppServices } from '../../src/app/services.js';
import { UserError } from '../../src/interaction/errors.js';
import type { Reply } from '../../src/interaction/reply.js';
import type { AttachmentRef, ChatInputContext, MessageContextContext } from '../../src/interaction/context.js';
import { messagesFor } from '../../src/i18n/messages.js';
import { logText, MAX_BULK_ADDRESSES, tallyIpAddresses } from '../../src/ip/address-list.js';
import { renderBulk } from '../../src/render/bulk.js';
import { formatBytes } from '../../src/render/format.js';
import { mapPoints } from '../../src/ip/world-map.js';

/** Largest log read: Discord's size is checked before the download and the bytes again while reading. */
export const MAX_LOG_BYTES = 1024 * 1024;
/** The progress line is edited at most this often (Discord limits edits of one message). */
const PROGRESS_EVERY_MS = 1_000;

/** `/ip bulk file`: every address in a log, located, counted, and attached as a CSV. */
export async function bulk(ctx: ChatInputContext, app: AppServices): Promise<Reply> {
  const file = ctx.options.getAttachment('file');
  if (file === null) throw new UserError((t) => t.ops.bulk.noAddresses);
  return answerLog(ctx, app, file);
}

/**
 * A log attached to `/ip bulk` or to a message (Locate IP): read from Discord's CDN only (at most
 * 1 MiB), up to 1,000 distinct addresses found, the public ones located in batches on the member's
 * bulk share, with a progress line while it works. The log's text is never logged nor kept.
 */
export async function answerLog(ctx: ChatInputContext | MessageContextContext, app: AppServices, file: AttachmentRef): Promise<Reply> {
  const messages = messagesFor(ctx.user.locale);
  await ctx.defer({ ephemeral: true });
  const read = await app.attachments.read(file, MAX_LOG_BYTES);
  if (!read.ok) {
    const problem = read.problem;
    throw new UserError((t) => (problem === 'tooLarge' ? t.ops.bulk.tooLarge(formatBytes(MAX_LOG_BYTES)) : t.ops.bulk[problem]));
  }
  const text = logText(read.bytes);
  if (text === null) throw new UserError((t) => t.ops.bulk.notText);
  const { counts, skipped } = tallyIpAddresses(text, MAX_BULK_ADDRESSES);
  if (counts.size === 0) throw new UserError((t) => t.ops.bulk.noAddresses);
  let noted = -Infinity;
  const records = await app.ipLookup.locateLog([...counts.keys()], app.memberShares.bulkSpenderFor(ctx.user.id), async (done, total) => {
    const now = app.clock.now().getTime();
    if (done >= total || now - noted < PROGRESS_EVERY_MS) return;
    noted = now;
    await ctx.progress(messages.ops.bulk.progress(done, total), { ephemeral: true });
  });
  // Two or more located places: a map of them (one dot alone says nothing a country line does not).
  const points = mapPoints([...records].map(([address, record]) => ({ latitude: record.latitude, longitude: record.longitude, count: counts.get(address) ?? 1 })));
  const map = points.length >= 2 ? await app.worldMap.draw(points) : undefined;
  return renderBulk({ fileName: file.name, counts, records, skipped, max: MAX_BULK_ADDRESSES, map, messages });
}
