/**
 * The deck composer's child process (see composer.ts): composes each picture it is sent, in turn,
 * and answers with the JPEG or the failure's message. It leaves when its parent does.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { composeDeckImage } from '../../render/deck-image.js';
import type { DeckPicture } from '../../render/deck-picture.js';
import type { ComposeAnswer, ComposeJob } from './composer.js';

const send = (answer: ComposeAnswer) => process.send?.(answer);

/** The child's niceness: when the bot's event loop and a picture both want a core, the loop goes first. */
const NICENESS = 10;

/**
 * Every thread of this process at `NICENESS`: Linux keeps a niceness per thread, and the ones
 * started before this ran (V8's, libuv's pool) kept the parent's; threads started after inherit it
 * from their creator. Called again before each picture for any started since. Elsewhere, or where
 * it is not allowed, the child keeps the parent's priority.
 */
function yieldToTheBot(): void {
  try {
    for (const thread of readdirSync('/proc/self/task')) setPriority(Number(thread), NICENESS);
  } catch {
    // Not Linux, or not allowed.
  }
}

/** Buffers cross the IPC channel as plain Uint8Arrays: sharp wants Buffers back (views, no copy). */
function revived(picture: DeckPicture): DeckPicture {
  return {
    ...picture,
    tiles: picture.tiles.map((tile) => (tile.art === undefined ? tile : { ...tile, art: Buffer.from(tile.art.buffer, tile.art.byteOffset, tile.art.byteLength) })),
  };
}

process.on('message', (job: ComposeJob) => {
  yieldToTheBot();
  composeDeckImage(revived(job.picture))
    .then(
      (jpeg) => send({ id: job.id, jpeg }),
      (error: unknown) => send({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
    )
    // A picture leaves tens of MB of buffers behind; collected now (a few ms of this process, with
    // --expose-gc), they go back to the system before the next picture rather than after several.
    .finally(() => setImmediate(() => globalThis.gc?.()));
});
process.on('disconnect', () => process.exit(0));
yieldToTheBot();
send({ ready: true });
