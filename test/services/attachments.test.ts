import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordAttachments, localAttachments } from '../../src/services/attachments.js';
import { FakeServer, type FakeResponse } from '../fakes/fake-server.js';

const LIMIT = 64 * 1024;

describe('DiscordAttachments: only Discord’s CDN, only up to the limit', () => {
  let cdn: FakeServer;
  let elsewhere: FakeServer;
  const routes = new Map<string, FakeResponse>();

  beforeAll(async () => {
    cdn = await new FakeServer((request) => routes.get(request.path) ?? { status: 404 }).start();
    elsewhere = await new FakeServer(() => ({ status: 200, body: '#main\n1\n' })).start();
  });

  afterAll(async () => {
    await cdn.close();
    await elsewhere.close();
  });

  const attachments = () => new DiscordAttachments({ cdnUrl: `${cdn.url}/attachments` });
  const ref = (path: string, size: number) => ({ name: 'deck.ydk', size, url: `${cdn.url}${path}` });

  it('reads a file the CDN serves, following a redirect that stays on it', async () => {
    routes.set('/attachments/1/deck.ydk', { status: 200, body: '#main\n55144522\n' });
    routes.set('/attachments/1/old.ydk', { status: 302, headers: { location: '/attachments/1/deck.ydk' } });
    const read = await attachments().read(ref('/attachments/1/old.ydk', 16), LIMIT);
    expect(read).toEqual({ ok: true, bytes: Buffer.from('#main\n55144522\n') });
  });

  it('refuses a declared size over the limit, another host, another path, or a redirect off the CDN, without asking them', async () => {
    const before = cdn.requests.length;
    expect(await attachments().read(ref('/attachments/1/deck.ydk', LIMIT + 1), LIMIT)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(await attachments().read({ name: 'a.ydk', size: 10, url: `${elsewhere.url}/attachments/1/a.ydk` }, LIMIT)).toEqual({ ok: false, problem: 'notDiscord' });
    expect(await attachments().read(ref('/avatars/1/a.ydk', 10), LIMIT)).toEqual({ ok: false, problem: 'notDiscord' });
    expect(await attachments().read({ name: 'a.ydk', size: 10, url: 'not a url' }, LIMIT)).toEqual({ ok: false, problem: 'notDiscord' });
    expect(cdn.requests.length).toBe(before);
    routes.set('/attachments/1/away.ydk', { status: 301, headers: { location: `${elsewhere.url}/attachments/1/a.ydk` } });
    expect(await attachments().read(ref('/attachments/1/away.ydk', 10), LIMIT)).toEqual({ ok: false, problem: 'notDiscord' });
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('stops reading a body that outgrows the limit whatever size was declared; a missing file or a stall is unreadable', async () => {
    routes.set('/attachments/1/liar.ydk', { status: 200, body: Buffer.alloc(LIMIT + 1, 'x') });
    expect(await attachments().read(ref('/attachments/1/liar.ydk', 100), LIMIT)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(await attachments().read(ref('/attachments/1/gone.ydk', 100), LIMIT)).toEqual({ ok: false, problem: 'unreadable' });
    cdn.mode = 'slow';
    try {
      const impatient = new DiscordAttachments({ cdnUrl: `${cdn.url}/attachments`, timeoutMs: 50 });
      expect(await impatient.read(ref('/attachments/1/deck.ydk', 10), LIMIT)).toEqual({ ok: false, problem: 'unreadable' });
    } finally {
      cdn.mode = 'normal';
    }
  });

  it('reads from media.discordapp.net too', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://media.discordapp.net').intercept({ path: '/attachments/1/2/deck.ydk', method: 'GET' }).reply(200, '#main\n1\n');
    const media = new DiscordAttachments({ cdnUrl: 'https://cdn.discordapp.com', dispatcher: agent });
    expect(await media.read({ name: 'deck.ydk', size: 8, url: 'https://media.discordapp.net/attachments/1/2/deck.ydk' }, LIMIT)).toEqual({ ok: true, bytes: Buffer.from('#main\n1\n') });
    await agent.close();
  });
});

describe('localAttachments: the terminal’s own files, with the same limit', () => {
  it('reads a file, refuses one over the limit and says when one cannot be read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'almanac-attachments-'));
    await writeFile(join(dir, 'deck.ydk'), '#main\n1\n');
    await writeFile(join(dir, 'big.ydk'), Buffer.alloc(LIMIT + 1));
    const local = (name: string) => ({ name, size: 0, url: pathToFileURL(join(dir, name)).href });
    expect(await localAttachments.read(local('deck.ydk'), LIMIT)).toEqual({ ok: true, bytes: Buffer.from('#main\n1\n') });
    expect(await localAttachments.read(local('big.ydk'), LIMIT)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(await localAttachments.read(local('missing.ydk'), LIMIT)).toEqual({ ok: false, problem: 'unreadable' });
  });
});
