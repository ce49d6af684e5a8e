import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { pino, type Logger } from 'pino';
import { SET_IMAGE_STEM_PATTERN } from '../../cards/card-set.js';
import type { SharedBlobs } from '../../state/shared-state.js';
import type { MemberShareSpender } from '../../upstream/cache.js';
import { writeDurably } from './card-snapshot.js';
import { UpstreamError, isUpstreamError } from '../../interaction/upstream-error.js';
import { CARD_IMAGE_SIZES, MAX_IMAGE_BYTES, type CardImageSize, type YgoprodeckClient } from './ygoprodeck.js';

/**
 * Card art, downloaded once and served from disk: YGOPRODeck blacklists IPs that hotlink
 * `images.ygoprodeck.com`, so the bot attaches the file to its reply instead of linking it.
 *
 * Files live in `DATA_DIR/images/<full|small|cropped>/<imageId>.<jpg|png>`, and set images (which
 * the same no-hotlink rule covers) in `DATA_DIR/images/sets/<name>.<jpg|png>`. The store is bounded
 * by total size and evicts the least recently used image (its file times are bumped on use, at most
 * hourly, so the order survives restarts). The few most-shown images are also held in memory.
 * Downloads go through the YGOPRODeck client, and so through its limiter and circuit: the image
 * host counts toward the same request budget.
 */

const CARD_IMAGE_DEFAULTS = {
  /** About 7,000 full-size arts (≈150 KB each). */
  maxTotalBytes: 1024 * 1024 * 1024,
  /** A card art that does not exist upstream is not asked for again for this long. */
  notFoundTtlMs: 60 * 60_000,
  /**
   * The most-shown images are also kept in memory (≈25 full-size arts), so the hottest cards cost
   * no disk read. Kept small: the kernel's page cache already holds the recently read files outside
   * the process, and 32 MB here was an eighth of the bot's RSS after a busy hour.
   */
  memoryBytes: 4 * 1024 * 1024,
} as const;

/** A file's times record its last use for eviction after a restart; an hour's precision is plenty. */
const TOUCH_FILE_EVERY_MS = 60 * 60_000;

/** Smaller than this is no card art (an error page, an empty body), whatever its first bytes say. */
const MIN_IMAGE_BYTES = 100;
const SET_FOLDER = 'sets';
/** What each folder's image files are named: a card art by its image id, a set image by its name. */
const FILE_NAMES: Readonly<Record<CardImageSize | typeof SET_FOLDER, RegExp>> = {
  full: /^(\d+)\.(jpg|png)$/,
  small: /^(\d+)\.(jpg|png)$/,
  cropped: /^(\d+)\.(jpg|png)$/,
  [SET_FOLDER]: /^([A-Za-z0-9_-]{1,40})\.(jpg|png)$/,
};
const TEMP_FILE = /^\..+\.tmp$/;

export interface CardImageStoreOptions {
  client: Pick<YgoprodeckClient, 'image' | 'setImage'>;
  /** `DATA_DIR`; images live in its `images/` folder. */
  dataDir: string;
  maxTotalBytes?: number;
  notFoundTtlMs?: number;
  memoryBytes?: number;
  /**
   * Where other processes of the fleet leave what they downloaded (processes share no disk): an
   * image not on this disk is taken from there, or downloaded by one process for all. Absent: this
   * process downloads what it lacks.
   */
  shared?: SharedBlobs;
  logger?: Logger;
  now?: () => number;
}

interface StoredImage {
  /** Path relative to the store's folder. */
  file: string;
  bytes: number;
  /** When the file's times were last bumped (0: not since start). */
  touchedAt?: number;
}

interface CardImageStats {
  images: number;
  bytes: number;
  maxBytes: number;
  downloads: number;
}

export class CardImageStore {
  private readonly dir: string;
  private readonly client: CardImageStoreOptions['client'];
  private readonly maxTotalBytes: number;
  private readonly logger: Logger;
  private readonly now: () => number;
  /** Stored images, least recently used first (a Map keeps insertion order). */
  private readonly stored = new Map<string, StoredImage>();
  private totalBytes = 0;
  private downloads = 0;
  private indexing: Promise<void> | undefined;
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private readonly missing: LRUCache<string, true>;
  private readonly hot: LRUCache<string, Buffer>;
  private readonly shared: SharedBlobs | undefined;

  constructor(options: CardImageStoreOptions) {
    if (typeof options.dataDir !== 'string' || options.dataDir.trim() === '') {
      throw new TypeError('CardImageStore: option "dataDir" must be a non-empty path');
    }
    for (const name of ['maxTotalBytes', 'notFoundTtlMs', 'memoryBytes'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new TypeError(`CardImageStore: option "${name}" must be a positive number, got ${value}`);
      }
    }
    this.dir = join(options.dataDir, 'images');
    this.client = options.client;
    this.maxTotalBytes = options.maxTotalBytes ?? CARD_IMAGE_DEFAULTS.maxTotalBytes;
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.now = options.now ?? Date.now;
    this.shared = options.shared;
    const now = this.now;
    this.missing = new LRUCache<string, true>({
      max: 10_000,
      ttl: options.notFoundTtlMs ?? CARD_IMAGE_DEFAULTS.notFoundTtlMs,
      perf: { now },
    });
    this.hot = new LRUCache<string, Buffer>({
      maxSize: options.memoryBytes ?? CARD_IMAGE_DEFAULTS.memoryBytes,
      sizeCalculation: (bytes) => bytes.length,
    });
  }

  /**
   * The image's bytes: from disk when stored, otherwise downloaded once (concurrent requests for the
   * same image share the download), validated and stored. Throws an `UpstreamError` when it cannot
   * be had; callers then show the card without its image. Only a download is spent from `share`
   * (its refusal rejects the call); a stored image is free.
   */
  get(imageId: number, size: CardImageSize = 'full', share?: MemberShareSpender): Promise<Buffer> {
    if (!Number.isSafeInteger(imageId) || imageId <= 0) {
      return Promise.reject(new UpstreamError('ygoprodeck', 'invalid_input', 'an image id must be a positive integer'));
    }
    if (!CARD_IMAGE_SIZES.includes(size)) {
      return Promise.reject(new UpstreamError('ygoprodeck', 'invalid_input', 'unknown image size'));
    }
    return this.fetchOnce(size, String(imageId), spending(share, () => this.client.image(imageId, size)));
  }

  /** A set's image by its file name (`CardSet.imageStem`), from disk or downloaded once, like card art. */
  getSetImage(stem: string, share?: MemberShareSpender): Promise<Buffer> {
    if (typeof stem !== 'string' || !SET_IMAGE_STEM_PATTERN.test(stem)) {
      return Promise.reject(new UpstreamError('ygoprodeck', 'invalid_input', 'a set image name must be 1-40 letters, digits, "_" or "-"'));
    }
    return this.fetchOnce(SET_FOLDER, stem, spending(share, () => this.client.setImage(stem)));
  }

  stats(): CardImageStats {
    return { images: this.stored.size, bytes: this.totalBytes, maxBytes: this.maxTotalBytes, downloads: this.downloads };
  }

  /** Facts for /status. */
  details(): Record<string, string | number> {
    return { cardImages: this.stored.size, cardImageBytes: this.totalBytes, cardImageDownloads: this.downloads };
  }

  /** Concurrent requests for the same image share one load. */
  private fetchOnce(folder: string, name: string, download: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${folder}/${name}`;
    const inMemory = this.hot.get(key);
    const stored = this.stored.get(key);
    if (inMemory !== undefined && stored !== undefined) {
      this.touch(key, stored);
      return Promise.resolve(inMemory);
    }
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.load(key, folder, name, download)
        .then((bytes) => {
          this.hot.set(key, bytes);
          return bytes;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async load(key: string, folder: string, name: string, download: () => Promise<Buffer>): Promise<Buffer> {
    await (this.indexing ??= this.index());
    const stored = this.stored.get(key);
    if (stored !== undefined) {
      try {
        const bytes = await readFile(join(this.dir, stored.file));
        this.touch(key, stored);
        return bytes;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // Removed behind our back: forget it and download it again.
        this.forget(key, stored);
      }
    }
    if (this.missing.has(key)) throw new UpstreamError('ygoprodeck', 'not_found', 'no such card image');
    let bytes: Buffer;
    try {
      const counted = () =>
        download().then((downloaded) => {
          this.downloads++;
          return downloaded;
        });
      bytes = await (this.shared ? this.shared.fetch(`card-art:${key}`, counted) : counted());
    } catch (error) {
      if (isUpstreamError(error, 'not_found')) this.missing.set(key, true);
      throw error;
    }
    const type = imageType(bytes);
    if (type === undefined) throw new UpstreamError('ygoprodeck', 'bad_response', 'card image is neither a JPEG nor a PNG');
    try {
      await this.store(key, folder, `${name}.${type}`, bytes);
    } catch (error) {
      // The image is still good for this reply; it is downloaded again next time.
      this.logger.warn({ err: error, image: key }, 'could not store a card image');
    }
    return bytes;
  }

  private async store(key: string, folderName: string, name: string, bytes: Buffer): Promise<void> {
    const folder = join(this.dir, folderName);
    const path = join(folder, name);
    const temp = join(folder, `.${name}.${randomUUID()}.tmp`);
    await mkdir(folder, { recursive: true });
    await writeDurably(temp, [bytes]);
    try {
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.stored.set(key, { file: `${folderName}/${name}`, bytes: bytes.length });
    this.totalBytes += bytes.length;
    await this.evictBeyondLimit(key);
  }

  /** Marks an image as just used: last in eviction order, here and (by its file times) after a restart. */
  private touch(key: string, image: StoredImage): void {
    this.stored.delete(key);
    this.stored.set(key, image);
    const now = this.now();
    if (now - (image.touchedAt ?? 0) < TOUCH_FILE_EVERY_MS) return;
    image.touchedAt = now;
    void utimes(join(this.dir, image.file), new Date(now), new Date(now)).catch(() => undefined);
  }

  private forget(key: string, image: StoredImage): void {
    this.hot.delete(key);
    if (this.stored.delete(key)) this.totalBytes -= image.bytes;
  }

  private async evictBeyondLimit(keep?: string): Promise<void> {
    for (const [key, image] of this.stored) {
      if (this.totalBytes <= this.maxTotalBytes) break;
      if (key === keep) continue;
      this.forget(key, image);
      await rm(join(this.dir, image.file), { force: true });
    }
  }

  /** Rebuilds the in-memory index from disk, oldest use first, and drops temporary files left by a crash. */
  private async index(): Promise<void> {
    const found: (StoredImage & { key: string; usedAt: number })[] = [];
    for (const [folder, fileName] of Object.entries(FILE_NAMES)) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, folder));
      } catch {
        continue;
      }
      for (const name of names) {
        const path = join(this.dir, folder, name);
        if (TEMP_FILE.test(name)) {
          await rm(path, { force: true });
          continue;
        }
        const match = fileName.exec(name);
        if (!match) continue;
        const info = await stat(path).catch(() => undefined);
        if (!info?.isFile()) continue;
        found.push({ key: `${folder}/${match[1]}`, file: `${folder}/${name}`, bytes: info.size, usedAt: Math.max(info.atimeMs, info.mtimeMs) });
      }
    }
    found.sort((left, right) => left.usedAt - right.usedAt);
    for (const { key, file, bytes } of found) {
      this.stored.set(key, { file, bytes });
      this.totalBytes += bytes;
    }
    await this.evictBeyondLimit();
  }
}

/**
 * `jpg` or `png` by magic bytes, when the size is plausible for card art; undefined otherwise. A JPEG
 * must also end with its end-of-image marker (trailing zero padding aside): a transfer cut short
 * would otherwise be stored, and so shown broken, for good.
 */
/** `download`, preceded by spending the member's share for it. */
function spending(share: MemberShareSpender | undefined, download: () => Promise<Buffer>): () => Promise<Buffer> {
  return async () => {
    await share?.beforeRequest?.();
    return download();
  };
}

export function imageType(bytes: Buffer): 'jpg' | 'png' | undefined {
  if (bytes.length < MIN_IMAGE_BYTES || bytes.length > MAX_IMAGE_BYTES) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return endsWithJpegEnd(bytes) ? 'jpg' : undefined;
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function endsWithJpegEnd(bytes: Buffer): boolean {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0x00) end--;
  return end >= 2 && bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
}
