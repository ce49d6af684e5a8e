import { describe, expect, it } from 'vitest';
import { lookup } from '../../../commands/ip/lookup.js';
import { en } from '../../../src/i18n/en.js';
import { chatContext } from '../../helpers/command-contexts.js';
import { ipServices } from '../../helpers/ip-lookups.js';

describe('/ip lookup', () => {
  it('locates every entry, at most 10 addresses with their reverse names, on the member’s GeoJS share, privately', async () => {
    const { app, locate } = ipServices();
    const reply = await lookup(chatContext('lookup', { addresses: '8.8.8.8, github.com' }).ctx, app);
    expect(locate).toHaveBeenCalledWith([expect.objectContaining({ kind: 'address' }), expect.objectContaining({ kind: 'name' })], { max: 10, reverse: true }, {});
    expect(app.memberShares.spenderFor).toHaveBeenCalledWith('42', 'geojs');
    expect(reply.ephemeral).toBe(true);
    expect(reply.embeds?.[0]?.title).toContain('8.8.8.8');
    expect((await lookup(chatContext('lookup', { addresses: '8.8.8.8', public: true }).ctx, app)).ephemeral).toBe(false);
  });

  it('refuses bad entries, too many, or none, before any lookup', async () => {
    const { app, locate } = ipServices();
    await expect(lookup(chatContext('lookup', { addresses: '1 2 3 4 5 6 7 8 9 10 11'.replace(/\d+/g, (n) => `10.0.0.${n}`) }).ctx, app)).rejects.toThrow(en.ip.tooMany(11, 10));
    await expect(lookup(chatContext('lookup', { addresses: ' , ' }).ctx, app)).rejects.toThrow(en.ip.giveAddresses);
    await expect(lookup(chatContext('lookup', { addresses: '999.1.1.1' }).ctx, app)).rejects.toThrow(/999\.1\.1\.1/);
    expect(locate).not.toHaveBeenCalled();
  });

  it('answers with the notes alone when no address could be located', async () => {
    const { app } = ipServices({ results: [], notes: [{ kind: 'unresolved', name: 'nowhere.example', failure: 'noSuchName' }] });
    await expect(lookup(chatContext('lookup', { addresses: 'nowhere.example' }).ctx, app)).rejects.toThrow('• “nowhere.example”: no such name');
  });
});
