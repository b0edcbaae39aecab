/**
 * Reads of the read model take turns with everything else the process does
 * (docs/operating.md#reads-take-turns-with-writes).
 *
 * A search is synchronous work on the event loop. Run as each request arrives, 64 clients
 * searching keep the loop busy from one I/O poll to the next, and whatever waits on I/O gets
 * one step per pass: a write that makes ten round trips to the database waits ten passes, each
 * as long as every search that arrived meanwhile (a 5-project upsert took a second under such
 * load). So searches queue here and run in turns: a turn runs queued searches (and what their
 * callers do next, up to their next await) until `budgetMs` is spent, then gives the loop back —
 * I/O callbacks, the steps of writes, the model's applies, /healthz — and the next turn
 * continues in a later pass (setImmediate). A pass then costs at most about one turn's budget
 * plus one search, whatever the number of clients; throughput is unchanged, and each search
 * waits for the ones before it, in arrival order.
 */
export class Turns {
  private queue: (() => void)[] = [];
  private head = 0;
  private running = false;
  /** True while a queued read's work runs (its synchronous part, in a turn). */
  active = false;

  constructor(private readonly budgetMs = 4) {}

  /** Runs `fn` in a turn; resolves with its value (or rejects with what it threw). */
  run<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push(() => {
        this.active = true;
        try {
          resolve(fn());
        } catch (err) {
          reject(err);
        } finally {
          this.active = false;
        }
      });
      if (!this.running) {
        this.running = true;
        setImmediate(this.turn);
      }
    });
  }

  /** Searches waiting for a turn. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  private readonly turn = async () => {
    const until = performance.now() + this.budgetMs;
    while (this.head < this.queue.length) {
      const task = this.queue[this.head]!;
      this.queue[this.head++] = noop;
      task();
      // the caller's continuation (paging, the details from the cache) runs before the next
      await undefined;
      if (performance.now() >= until) break;
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
      this.running = false;
    } else {
      if (this.head > 1024) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      setImmediate(this.turn);
    }
  };
}

const noop = () => {};

/**
 * Gives the event loop a pass (I/O, the reads' turns) before the caller goes on: long
 * synchronous work (a tag merge's thousands of revisions, an apply of as many projects) is done
 * in slices with this between them.
 */
export function nextPass(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
