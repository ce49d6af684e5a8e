import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import type { DeckPicture } from '../../render/deck-picture.js';

/**
 * Deck pictures composed in a child process that leaves when idle. libvips' buffers, Pango's and the
 * allocator's arenas are native memory that glibc keeps after a composition: in the bot's process
 * 60 pictures of 200 name tiles left RSS 130–400 MB above where it started. A child's memory is the
 * system's again when it exits, and its work is never the bot's event loop. Its allocator settings
 * (`CHILD_ALLOCATOR`) keep its own peak down while it lives.
 */

export interface ComposeJob {
  id: number;
  picture: DeckPicture;
}

/** A picture's answer; or, once, the child saying it is up (its start is not a picture's time). */
export type ComposeAnswer = { id: number; jpeg: Uint8Array } | { id: number; error: string } | { ready: true };

export interface DeckComposerOptions {
  /** The child's entry (tests: the run's bundle of it); default: composer-child next to this file. */
  entry?: URL;
  /** An idle child leaves after this long (the next picture starts a new one, about 0.2 s). */
  idleMs?: number;
  /** A child leaves once idle after this many pictures, whatever the timer says: the allocator's holdings are returned. */
  picturesPerChild?: number;
  /**
   * A picture not answered by then fails and its child is killed: a child that hangs would otherwise
   * hold every deck behind it. A 200-tile picture takes under a second here.
   */
  deadlineMs?: number;
  logger?: Logger;
}

/**
 * glibc settings for the child, read when it starts: two arenas (one per core here) instead of eight
 * per core, and buffers from 64 KiB up (a canvas, resized art, the JPEG) mapped on their own and
 * returned when freed, rather than carved from an arena that keeps them. With a collection after
 * each picture (composer-child.ts), 12 decks of 200 name tiles left the child at 108 MB, against
 * 167–196 MB with the arenas alone and 293 MB with neither.
 */
const CHILD_ALLOCATOR = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' } as const;
const DEFAULT_IDLE_MS = 20_000;
const DEFAULT_PICTURES_PER_CHILD = 40;
const DEFAULT_DEADLINE_MS = 60_000;
/**
 * The child's entry next to this file: compiled JavaScript in production, TypeScript under tsx or
 * vitest. Bundled into an entry point of src/ (the tests' bundles), this code runs from that entry
 * point's file, and the child's bundle sits at its own path below it.
 */
const ENTRY = /\/services\/deck-pictures\/composer\.[jt]s$/.test(import.meta.url)
  ? new URL(import.meta.url.endsWith('.ts') ? './composer-child.ts' : './composer-child.js', import.meta.url)
  : new URL('./services/deck-pictures/composer-child.js', import.meta.url);

interface Pending {
  /** The child composing it: when that child leaves, only its own pictures fail. */
  child: ChildProcess;
  deadline: NodeJS.Timeout | undefined;
  resolve(jpeg: Buffer): void;
  reject(error: Error): void;
}

export class DeckComposer {
  private child: ChildProcess | undefined;
  /** Resolves once the current child is up: a picture's deadline runs from then. */
  private childReady: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private composedByChild = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly picturesPerChild: number;
  private readonly deadlineMs: number;
  private readonly entry: URL;
  private readonly logger: Logger;
  private closed = false;

  constructor(options: DeckComposerOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.picturesPerChild = options.picturesPerChild ?? DEFAULT_PICTURES_PER_CHILD;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.entry = options.entry ?? ENTRY;
    this.logger = options.logger ?? pino({ level: 'silent' });
  }

  /** The picture as a JPEG (see `composeDeckImage`); rejects when the child fails or leaves first. */
  compose(picture: DeckPicture): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('the deck composer is closed'));
    clearTimeout(this.idleTimer);
    const child = this.running();
    child.ref();
    child.channel?.ref();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      const pending: Pending = { child, deadline: undefined, resolve, reject };
      this.pending.set(id, pending);
      void this.childReady.then(() => {
        if (!this.pending.has(id)) return;
        pending.deadline = setTimeout(() => {
          this.logger.warn({ pid: child.pid, deadlineMs: this.deadlineMs }, 'deck composer: a picture took too long; the child is killed');
          child.kill('SIGKILL');
        }, this.deadlineMs);
      });
      child.send({ id, picture } satisfies ComposeJob, (error) => {
        if (error !== null) this.settle(id, { id, error: error.message });
      });
    });
  }

  /** The running child's process id, if one is running (tests watch it come and go). */
  get childPid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the child; pictures still being composed fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
  }

  private running(): ChildProcess {
    if (this.child !== undefined) return this.child;
    const child = fork(fileURLToPath(this.entry), [], {
      // The parent's own flags (--env-file, the inspector) are not the child's; the sources run untranspiled in tests and `npm run dev`.
      execArgv: [...(this.entry.pathname.endsWith('.ts') ? ['--import', 'tsx'] : []), '--expose-gc'],
      env: { ...process.env, ...CHILD_ALLOCATOR },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.childReady = new Promise((resolve) => {
      child.on('message', (answer: ComposeAnswer) => ('ready' in answer ? resolve() : this.settle(answer.id, answer)));
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      const unfinished = [...this.pending].filter(([, pending]) => pending.child === child).map(([id]) => id);
      if (unfinished.length === 0) return;
      this.logger.warn({ code, signal, pictures: unfinished.length }, 'deck composer: the child left with pictures unfinished');
      for (const id of unfinished) this.settle(id, { id, error: `the deck composer left (${signal ?? code})` });
    });
    child.on('error', (error) => this.logger.warn({ err: error }, 'deck composer: the child failed'));
    this.child = child;
    this.composedByChild = 0;
    return child;
  }

  private settle(id: number, answer: Exclude<ComposeAnswer, { ready: true }>): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.deadline);
    if ('jpeg' in answer) pending.resolve(Buffer.from(answer.jpeg.buffer, answer.jpeg.byteOffset, answer.jpeg.byteLength));
    else pending.reject(new Error(`deck composer: ${answer.error}`));
    this.composedByChild++;
    if (this.pending.size > 0) return;
    // Idle: the child must not keep the bot's process alive, and leaves soon (at once after its share of pictures).
    this.child?.unref();
    this.child?.channel?.unref();
    if (this.composedByChild >= this.picturesPerChild) this.stop();
    else this.idleTimer = setTimeout(() => this.stop(), this.idleMs).unref();
  }

  private stop(): void {
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = undefined;
    if (child?.connected === true) child.disconnect();
  }
}
