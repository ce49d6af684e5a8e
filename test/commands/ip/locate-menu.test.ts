import { describe, expect, it } from 'vitest';
import { locateIp } from '../../../commands/ip/locate-menu.js';
import { en } from '../../../src/i18n/en.js';
import { messageContext } from '../../helpers/command-contexts.js';
import { ipServices } from '../../helpers/ip-lookups.js';

describe('message menu Locate IP addresses', () => {
  it('locates the addresses and URL hosts found in the message, privately, ignoring dotted words', async () => {
    const { app, locate } = ipServices();
    const reply = await locateIp.execute(messageContext('app.worker.start failed for 8.8.8.8 via https://github.com/x').ctx, app);
    expect(locate).toHaveBeenCalledWith([expect.objectContaining({ kind: 'address' }), expect.objectContaining({ kind: 'name' })], { max: 10, reverse: true }, {});
    expect(reply.ephemeral).toBe(true);
  });

  it('looks up at most 10 entries and says how many it skipped', async () => {
    const { app, locate } = ipServices();
    const addresses = Array.from({ length: 12 }, (_, index) => `8.8.4.${index + 1}`).join(' ');
    const reply = await locateIp.execute(messageContext(addresses).ctx, app);
    expect((locate.mock.calls[0] as unknown[])[0]).toHaveLength(10);
    expect(reply.content).toContain(en.ip.skipped(1, 2));
  });

  it('says when the message holds nothing to locate', async () => {
    const { app, locate } = ipServices();
    await expect(locateIp.execute(messageContext('nothing here').ctx, app)).rejects.toThrow(en.ip.noneInMessage);
    expect(locate).not.toHaveBeenCalled();
  });
});
