import { mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CardImageStore, imageType, type CardImageStoreOptions } from '../../../src/services/ygoprodeck/card-images.js';
import { YgoprodeckClient } from '../../../src/services/ygoprodeck/ygoprodeck.js';
import { FakeServer } from '../../fakes/fake-server.js';
import { QUIRK_CARD_IDS, fakeJpeg, startFakeYgoprodeck, type FakeYgoprodeck } from '../../fakes/ygoprodeck.js';

let fake: FakeYgoprodeck;
let dataDir: string;
const clients: YgoprodeckClient[] = [];
const servers: FakeServer[] = [];

beforeEach(async () => {
  fake = await startFakeYgoprodeck();
  dataDir = await mkdtemp(join(tmpdir(), 'almanac-images-'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

function clientFor(baseUrl: string): YgoprodeckClient {
  const client = new YgoprodeckClient({ baseUrl, imagesBaseUrl: `${baseUrl}/images` });
  clients.push(client);
  return client;
}

function store(options: Partial<CardImageStoreOptions> = {}): CardImageStore {
  return new CardImageStore({ client: clientFor(fake.url), dataDir, ...options });
}

const imageRequests = () => fake.requestsTo('/images/');
const { normalMonster: DARK_MAGICIAN, altArts: BLUE_EYES, token: TOKEN, skill: SKILL } = QUIRK_CARD_IDS;
/** Every fake image has the same size, so limits can be counted in images. */
const IMAGE_BYTES = fakeJpeg('cards/1').length;

describe('downloading and serving', () => {
  it('downloads an image once, stores it, then serves it from disk', async () => {
    const images = store();
    const first = await images.get(DARK_MAGICIAN);
    expect(first).toEqual(fakeJpeg(`cards/${DARK_MAGICIAN}`));
    expect(await readFile(join(dataDir, 'images', 'full', `${DARK_MAGICIAN}.jpg`))).toEqual(first);
    expect(await images.get(DARK_MAGICIAN, 'full')).toEqual(first);
    expect(await images.get(DARK_MAGICIAN, 'small')).toEqual(fakeJpeg(`cards_small/${DARK_MAGICIAN}`));
    expect(imageRequests().map((request) => request.path)).toEqual([
      `/images/cards/${DARK_MAGICIAN}.jpg`,
      `/images/cards_small/${DARK_MAGICIAN}.jpg`,
    ]);
    expect(images.stats()).toEqual({ images: 2, bytes: 2 * IMAGE_BYTES, maxBytes: 1024 ** 3, downloads: 2 });
  });

  it('shares one download between concurrent requests for the same image', async () => {
    const images = store();
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => images.get(BLUE_EYES)),
      ...Array.from({ length: 5 }, () => images.get(89631140)),
    ]);
    expect(new Set(results.map((bytes) => bytes.toString('latin1'))).size).toBe(2);
    expect(imageRequests()).toHaveLength(2);
  });

  it('serves stored images after a restart without downloading them again', async () => {
    await store().get(TOKEN, 'cropped');
    const restarted = store();
    expect(await restarted.get(TOKEN, 'cropped')).toEqual(fakeJpeg(`cards_cropped/${TOKEN}`));
    expect(imageRequests()).toHaveLength(1);
    expect(restarted.stats()).toMatchObject({ images: 1, downloads: 0 });
  });

  it('serves a popular image from memory, without touching the disk again', async () => {
    const images = store();
    await images.get(SKILL);
    await rm(join(dataDir, 'images', 'full', `${SKILL}.jpg`));
    expect(await images.get(SKILL)).toEqual(fakeJpeg(`cards/${SKILL}`));
    expect(imageRequests()).toHaveLength(1);
  });

  it('downloads again an image whose file was removed behind its back', async () => {
    // No room in memory: every get reads the disk.
    const images = store({ memoryBytes: 1 });
    await images.get(SKILL);
    await rm(join(dataDir, 'images', 'full', `${SKILL}.jpg`));
    expect(await images.get(SKILL)).toEqual(fakeJpeg(`cards/${SKILL}`));
    expect(imageRequests()).toHaveLength(2);
  });

  it('removes temporary files left by a crash', async () => {
    const folder = join(dataDir, 'images', 'full');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `.${DARK_MAGICIAN}.jpg.0123.tmp`), Buffer.from([0xff, 0xd8]));
    await store().get(TOKEN);
    expect(await readdir(folder)).toEqual([`${TOKEN}.jpg`]);
  });

  it('still returns a downloaded image it cannot store', async () => {
    await writeFile(join(dataDir, 'images'), 'a file where the folder should be');
    const images = store();
    expect(await images.get(DARK_MAGICIAN)).toEqual(fakeJpeg(`cards/${DARK_MAGICIAN}`));
    expect(images.stats().images).toBe(0);
  });
});

describe('failures', () => {
  it('a missing image is not_found, and is not asked for again for a while', async () => {
    const images = store();
    await expect(images.get(12345)).rejects.toMatchObject({ kind: 'not_found', upstream: 'ygoprodeck' });
    await expect(images.get(12345)).rejects.toMatchObject({ kind: 'not_found' });
    expect(imageRequests()).toHaveLength(1);
  });

  it('refuses bodies that are not card art, storing nothing', async () => {
    const bodies = [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 0x41), Buffer.concat([Buffer.from('<!DOCTYPE html>'), Buffer.alloc(500, 0x20)])];
    let served = 0;
    const server = await new FakeServer(() => ({ status: 200, headers: { 'content-type': 'image/jpeg' }, body: bodies[served++] })).start();
    servers.push(server);
    const images = new CardImageStore({ client: clientFor(server.url), dataDir });
    await expect(images.get(DARK_MAGICIAN)).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(images.get(DARK_MAGICIAN)).rejects.toMatchObject({ kind: 'bad_response' });
    // An HTML page where an image should be is a block page: the client opens its circuit.
    await expect(images.get(DARK_MAGICIAN)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(server.requests).toHaveLength(3);
    expect(images.stats().images).toBe(0);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('accepts PNG art and stores it as .png', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 1)]);
    const server = await new FakeServer(() => ({ status: 200, headers: { 'content-type': 'image/png' }, body: png })).start();
    servers.push(server);
    expect(await new CardImageStore({ client: clientFor(server.url), dataDir }).get(7)).toEqual(png);
    expect(await readdir(join(dataDir, 'images', 'full'))).toEqual(['7.png']);
  });

  it('while the circuit is open, fails with the client error and sends nothing', async () => {
    const images = store();
    fake.blocked = true;
    await expect(images.get(DARK_MAGICIAN)).rejects.toMatchObject({ kind: 'rate_limited' });
    fake.blocked = false;
    await expect(images.get(BLUE_EYES)).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(imageRequests()).toHaveLength(1);
  });

  it('refuses invalid ids and sizes before any request', async () => {
    const images = store();
    for (const id of [0, -3, 1.5, Number.NaN]) await expect(images.get(id)).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(images.get(DARK_MAGICIAN, 'huge' as 'full')).rejects.toMatchObject({ kind: 'invalid_input' });
    expect(fake.server.requests).toHaveLength(0);
  });

  it('validates its options, naming the bad one', () => {
    const client = clientFor(fake.url);
    expect(() => new CardImageStore({ client, dataDir: '' })).toThrow(/"dataDir"/);
    expect(() => new CardImageStore({ client, dataDir, maxTotalBytes: 0 })).toThrow(/"maxTotalBytes"/);
    expect(() => new CardImageStore({ client, dataDir, memoryBytes: -1 })).toThrow(/"memoryBytes"/);
  });
});

describe('size bound', () => {
  it('evicts the least recently used image beyond the total size', async () => {
    const images = store({ maxTotalBytes: 3 * IMAGE_BYTES });
    for (const id of [DARK_MAGICIAN, BLUE_EYES, TOKEN]) await images.get(id);
    await images.get(DARK_MAGICIAN);
    await images.get(SKILL);
    expect((await readdir(join(dataDir, 'images', 'full'))).sort()).toEqual([`${DARK_MAGICIAN}.jpg`, `${TOKEN}.jpg`, `${SKILL}.jpg`].sort());
    expect(images.stats()).toMatchObject({ images: 3, bytes: 3 * IMAGE_BYTES });
    await images.get(BLUE_EYES);
    expect(imageRequests()).toHaveLength(5);
  });

  it('records each use in the file times, so the order survives a restart', async () => {
    const clock = Date.parse('2030-01-01T00:00:00Z');
    await store({ now: () => clock }).get(DARK_MAGICIAN);
    const reread = store({ now: () => clock });
    await reread.get(DARK_MAGICIAN);
    const file = join(dataDir, 'images', 'full', `${DARK_MAGICIAN}.jpg`);
    await expect.poll(async () => (await stat(file)).mtimeMs).toBe(clock);

    const folder = join(dataDir, 'images', 'full');
    await store().get(BLUE_EYES);
    await store().get(TOKEN);
    const hourAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await utimes(join(folder, `${BLUE_EYES}.jpg`), hourAgo(3), hourAgo(3));
    await utimes(join(folder, `${TOKEN}.jpg`), hourAgo(2), hourAgo(2));
    await store({ maxTotalBytes: 3 * IMAGE_BYTES }).get(SKILL);
    expect((await readdir(folder)).sort()).toEqual([`${DARK_MAGICIAN}.jpg`, `${TOKEN}.jpg`, `${SKILL}.jpg`].sort());
  });
});

describe('imageType', () => {
  it('recognises JPEG and PNG by their magic bytes, within sane sizes', () => {
    expect(imageType(fakeJpeg('x'))).toBe('jpg');
    expect(imageType(Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(200)]))).toBe('png');
    expect(imageType(Buffer.from([0xff, 0xd8, 0xff]))).toBeUndefined();
    expect(imageType(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(6 * 1024 * 1024)]))).toBeUndefined();
    expect(imageType(Buffer.alloc(500))).toBeUndefined();
  });
});
