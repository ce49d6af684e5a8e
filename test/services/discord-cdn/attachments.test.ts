import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { attachmentUrl, DiscordAttachments, localAttachments } from '../../../src/services/discord-cdn/attachments.js';
import { fuzzRuns } from '../../helpers/fuzz-runs.js';
import { FakeServer, type FakeResponse } from '../../fakes/fake-server.js';

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

  const attachments = () => new DiscordAttachments({ cdnUrl: cdn.url });
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

  it('reads a message’s attachments and those given to slash-command options, and nothing else on the CDN host, without asking it', async () => {
    routes.set('/attachments/1/2/deck.ydk', { status: 200, body: '#main\n1\n' });
    routes.set('/ephemeral-attachments/1/2/deck.ydk', { status: 200, body: '#main\n2\n' });
    expect(await attachments().read(ref('/attachments/1/2/deck.ydk', 8), LIMIT)).toEqual({ ok: true, bytes: Buffer.from('#main\n1\n') });
    expect(await attachments().read(ref('/ephemeral-attachments/1/2/deck.ydk', 8), LIMIT)).toEqual({ ok: true, bytes: Buffer.from('#main\n2\n') });
    const before = cdn.requests.length;
    for (const path of [
      '/avatars/1/deck.ydk',
      '/emojis/1.ydk',
      '/attachments',
      '/attachmentsx/1/deck.ydk',
      '/ephemeral-attachments',
      '/banners/attachments/1/deck.ydk',
      '/attachments/../avatars/1/deck.ydk',
      '/ephemeral-attachments/%2e%2e/icons/deck.ydk',
    ]) {
      routes.set(path, { status: 200, body: '#main\n3\n' });
      expect(await attachments().read(ref(path, 8), LIMIT), path).toEqual({ ok: false, problem: 'notDiscord' });
    }
    expect(cdn.requests.length).toBe(before);
    // A redirect from an attachment to another path of the host is off the attachments too.
    routes.set('/attachments/1/2/moved.ydk', { status: 302, headers: { location: '/avatars/1/deck.ydk' } });
    expect(await attachments().read(ref('/attachments/1/2/moved.ydk', 8), LIMIT)).toEqual({ ok: false, problem: 'notDiscord' });
    expect(cdn.requests.map((request) => request.path).slice(before)).toEqual(['/attachments/1/2/moved.ydk']);
  });

  it('stops reading a body that outgrows the limit whatever size was declared; a missing file or a stall is unreadable', async () => {
    routes.set('/attachments/1/liar.ydk', { status: 200, body: Buffer.alloc(LIMIT + 1, 'x') });
    expect(await attachments().read(ref('/attachments/1/liar.ydk', 100), LIMIT)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(await attachments().read(ref('/attachments/1/gone.ydk', 100), LIMIT)).toEqual({ ok: false, problem: 'unreadable' });
    cdn.mode = 'slow';
    try {
      const impatient = new DiscordAttachments({ cdnUrl: cdn.url, timeoutMs: 50 });
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

describe('attachmentUrl: the attachment paths of the allowed hosts, whatever the URL holds', () => {
  const hosts = [new URL('https://cdn.discordapp.com/'), new URL('https://media.discordapp.net/'), new URL('http://127.0.0.1:5000/cdn/')];
  const segment = fc.oneof(
    fc.constantFrom('attachments', 'ephemeral-attachments', 'avatars', '..', '.', '%2e%2e', '%2E.', '', 'cdn', '%2f', 'deck.ydk', '\\', '@'),
    fc.string({ maxLength: 6 }),
  );
  const origin = fc.constantFrom('https://cdn.discordapp.com', 'https://media.discordapp.net', 'http://127.0.0.1:5000', 'https://evil.example', 'https://user:pw@cdn.discordapp.com');
  const urls = fc.tuple(origin, fc.array(segment, { maxLength: 6 })).map(([at, segments]) => `${at}/${segments.join('/')}`);

  it('takes a URL only when, as it would be asked for, it is under an attachment path of an allowed host', () => {
    fc.assert(
      fc.property(urls, (text) => {
        const url = attachmentUrl(text, hosts);
        if (url === undefined) return;
        const host = hosts.find((allowed) => allowed.origin === url.origin);
        expect(host).toBeDefined();
        expect(url.username + url.password).toBe('');
        expect(url.pathname.startsWith(`${host!.pathname}attachments/`) || url.pathname.startsWith(`${host!.pathname}ephemeral-attachments/`), url.href).toBe(true);
      }),
      { numRuns: fuzzRuns(4_000) },
    );
  });

  it('takes every file under either attachment path, on each host', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/).filter((file) => file !== '.' && file !== '..');
    fc.assert(
      fc.property(fc.constantFrom(...hosts), fc.constantFrom('attachments', 'ephemeral-attachments'), fc.bigInt({ min: 10n ** 16n, max: 10n ** 19n }), name, (host, path, id, file) => {
        expect(attachmentUrl(new URL(`${path}/${id}/${id}/${file}`, host).href, hosts)).toBeDefined();
      }),
      { numRuns: fuzzRuns(1_000) },
    );
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
