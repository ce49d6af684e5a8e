import { describe, expect, it } from 'vitest';
import { time } from '../../../commands/ip/time.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { ipServices } from '../../helpers/ip-lookups.js';

describe('/ip time', () => {
  it('gives one public line with the local time, locating one address without its reverse name', async () => {
    const { app, locate } = ipServices();
    const reply = await time(chatContext('time', { address: '8.8.8.8' }).ctx, app);
    expect(locate).toHaveBeenCalledWith([expect.objectContaining({ kind: 'address' })], { max: 1, reverse: false }, {});
    expect(reply.content).toBe('`8.8.8.8` · 🇺🇸 United States · America/Los_Angeles · 12:32 (UTC−08:00)');
    expect(reply.ephemeral).toBe(false);
    expect((await time(chatContext('time', { address: '8.8.8.8', public: false }).ctx, app)).ephemeral).toBe(true);
  });

  it('takes one entry only, and refuses none', async () => {
    const { app, locate } = ipServices();
    await expect(time(chatContext('time', { address: '8.8.8.8 1.1.1.1' }).ctx, app)).rejects.toThrow(en.ip.giveOneAddress);
    await expect(time(chatContext('time', { address: '' }).ctx, app)).rejects.toThrow(en.ip.giveAddress);
    expect(locate).not.toHaveBeenCalled();
  });

  it('says why when the name gave no address', async () => {
    const { app } = ipServices({ results: [], notes: [{ kind: 'private', name: 'intranet.example' }] });
    await expect(time(chatContext('time', { address: 'intranet.example' }).ctx, app)).rejects.toThrow(`• “intranet.example”: ${en.ip.pointsToPrivate}`);
  });
});
