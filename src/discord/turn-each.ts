/**
 * Runs each job given to it in a turn of the event loop of its own, in arrival order. discord.js
 * reads every frame of one socket read in one go: a burst of 20 `/deck show` arriving together
 * was handled in one turn (reading, routing and deferring each), holding timers, socket reads and
 * other members' answers until the last was done. Between two jobs the loop now runs whatever
 * became due, timers included.
 */
export class TurnEach {
  private readonly jobs: (() => void)[] = [];
  private running = false;

  /** `onError` hears what a job throws: out of discord.js's listener, it would end the process. */
  constructor(private readonly onError: (error: unknown) => void) {}

  push(job: () => void): void {
    this.jobs.push(job);
    if (this.running) return;
    this.running = true;
    setImmediate(this.next);
  }

  private readonly next = (): void => {
    const job = this.jobs.shift();
    try {
      job?.();
    } catch (error) {
      this.onError(error);
    } finally {
      if (this.jobs.length > 0) setImmediate(this.next);
      else this.running = false;
    }
  };
}
