import type { DeckPicture } from '../../render/deck-picture.js';
import { DeckComposer, type DeckComposerOptions } from './composer.js';
import { UserError } from '../../interaction/errors.js';
import { FairTurns, TurnsRefused, type TurnLimits } from './fair-turns.js';

/**
 * Deck pictures, one at a time per process and per member. Twenty decks of 200 tiles composed at
 * once took 1.3 GB of native memory and held the event loop for seconds; in turn, in a child
 * process (composer.ts), the bot's memory and loop stay as they were. One member's decks wait for
 * each other, and members take turns, so a member posting ten decks delays nobody by ten.
 */
export interface DeckPictures {
  /**
   * `picture` composed as a JPEG in `member`'s turn; `onWait` is told at once, and only when it has
   * to wait, how many pictures are ahead. Refuses with a `UserError` when the member or the line is full.
   */
  draw(member: string, picture: DeckPicture, onWait?: (ahead: number) => void): Promise<Buffer>;
  close(): Promise<void>;
}

/** One picture takes 0.1–0.5 s: 30 waiting is at most about 15 s, far inside an interaction's 15 minutes. */
const DECK_PICTURE_TURNS: TurnLimits = { atOnce: 1, perMember: 3, waitingAtMost: 30 };

export interface DeckPicturesOptions extends DeckComposerOptions {
  /**
   * Wraps each composition in its turn (tests hold one to see the next wait); `compose` is the
   * child's. Default: the child's alone.
   */
  around?: (compose: () => Promise<Buffer>) => Promise<Buffer>;
}

export function createDeckPictures(options: DeckPicturesOptions = {}): DeckPictures {
  const turns = new FairTurns(DECK_PICTURE_TURNS);
  const composer = new DeckComposer(options);
  const around = options.around ?? ((compose) => compose());
  return {
    draw: (member, picture, onWait) =>
      turns.run(member, () => around(() => composer.compose(picture)), onWait).catch((error: unknown) => {
        if (error instanceof TurnsRefused) throw new UserError((t) => t.deck.pictureRefused[error.reason]);
        throw error;
      }),
    close: () => composer.close(),
  };
}
