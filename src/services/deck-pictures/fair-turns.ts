/**
 * Turns at a scarce resource, shared fairly: at most `atOnce` tasks run together, each member has
 * at most one running (the rest of theirs wait), and waiting members are served in rotation, so one
 * member's ten requests cannot keep everyone else waiting behind them. What waits is bounded: per
 * member and in all, past which a task is refused at once (`TurnsRefused`) rather than queued.
 */

export interface TurnLimits {
  /** Tasks running together. */
  atOnce: number;
  /** A member's tasks running or waiting; one more is refused. */
  perMember: number;
  /** Tasks waiting in all; one more is refused. */
  waitingAtMost: number;
}

/** A task refused a turn: its member has `perMember` already, or the line is full. */
export class TurnsRefused extends Error {
  constructor(readonly reason: 'member' | 'full') {
    super(reason === 'member' ? 'this member already has the most tasks allowed' : 'too many tasks are waiting');
    this.name = 'TurnsRefused';
  }
}

interface Waiting {
  start(): void;
}

export class FairTurns {
  /** Each member's waiting tasks, first first; a member is in `rotation` while it has any. */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly rotation: string[] = [];
  private readonly runningMembers = new Set<string>();
  private running = 0;
  private waitingCount = 0;

  constructor(private readonly limits: TurnLimits) {}

  /**
   * Runs `task` in `member`'s turn. `onWait` is told, at once and only when the task has to wait,
   * how many tasks are running or waiting ahead of it (at most: the rotation may serve it sooner).
   * Throws `TurnsRefused` without running it when the member or the line has no room.
   */
  run<T>(member: string, task: () => Promise<T>, onWait?: (ahead: number) => void): Promise<T> {
    const members = (this.waiting.get(member)?.length ?? 0) + (this.runningMembers.has(member) ? 1 : 0);
    if (members >= this.limits.perMember) return Promise.reject(new TurnsRefused('member'));
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        this.runningMembers.add(member);
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.runningMembers.delete(member);
            this.toBackOfRotation(member);
            this.startNext();
          });
      };
      if (this.running < this.limits.atOnce && !this.runningMembers.has(member)) return start();
      if (this.waitingCount >= this.limits.waitingAtMost) return reject(new TurnsRefused('full'));
      const ahead = this.running + this.waitingCount;
      const queue = this.waiting.get(member);
      if (queue === undefined) {
        this.waiting.set(member, [{ start }]);
        this.rotation.push(member);
      } else queue.push({ start });
      this.waitingCount++;
      onWait?.(ahead);
    });
  }

  /** Tasks running and waiting now. */
  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /** A member who has just had a turn waits behind every member who is waiting. */
  private toBackOfRotation(member: string): void {
    const index = this.rotation.indexOf(member);
    if (index !== -1) this.rotation.push(...this.rotation.splice(index, 1));
  }

  /** Starts waiting tasks while there is room: the first member in rotation not running one, who then goes last. */
  private startNext(): void {
    while (this.running < this.limits.atOnce) {
      const index = this.rotation.findIndex((member) => !this.runningMembers.has(member));
      if (index === -1) return;
      const member = this.rotation[index]!;
      const queue = this.waiting.get(member)!;
      const next = queue.shift()!;
      this.waitingCount--;
      this.rotation.splice(index, 1);
      if (queue.length === 0) this.waiting.delete(member);
      else this.rotation.push(member);
      next.start();
    }
  }
}
