/**
 * Waiting on events instead of time: a queue the code under test pushes into, and `next(predicate)`
 * that resolves with the first event (in order) that matches — failing only when none comes within a
 * generous bound, so a loaded machine makes a test slower, never wrong.
 */

/** How long a test waits for an event that should come before it gives up (ms). */
export const GENEROUS = 30_000;

export class EventQueue<T> {
  private readonly seen: T[] = [];
  private read = 0;
  private waiter: (() => void) | null = null;

  push(event: T): void {
    this.seen.push(event);
    this.waiter?.();
  }

  /** Every event pushed so far. */
  all(): readonly T[] {
    return this.seen;
  }

  /** The next event (after those already taken) that matches; the events skipped are taken too. */
  async next(match: (e: T) => boolean, what: string, bound = GENEROUS): Promise<T> {
    const deadline = Date.now() + bound;
    for (;;) {
      while (this.read < this.seen.length) {
        const e = this.seen[this.read++]!;
        if (match(e)) return e;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${bound} ms; events: ${JSON.stringify(this.seen.slice(-10))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          this.waiter = null;
          resolve();
        };
      });
    }
  }
}
