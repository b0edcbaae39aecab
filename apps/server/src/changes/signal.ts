import type { FeedServices } from '@directory/core/server';
import { CHANGES_CHANNEL, type DatabaseHandle } from '@directory/db';

export { CHANGES_CHANNEL };

/**
 * Wakes long-polls of this process when changes commit. One listener per process: on
 * PostgreSQL one dedicated connection (outside the pool) LISTENs, and a NOTIFY sent at commit
 * by any server process wakes every waiting request here; on PGlite the notification comes
 * from the embedded database itself. A waiting request holds only a timer and a callback.
 */
export class ChangeSignal implements FeedServices {
  version = 0;
  stopping = false;
  private readonly waiters = new Set<() => void>();
  private readonly subscribers = new Set<() => void>();
  private unlisten: (() => Promise<void>) | undefined;

  /** Starts listening on the database's notifications. */
  async listen(db: Pick<DatabaseHandle, 'listen'>): Promise<void> {
    this.unlisten = await db.listen(CHANGES_CHANNEL, () => this.notify());
  }

  /** A change committed (or may have): wake every waiter. */
  notify(): void {
    this.version++;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
    for (const subscriber of this.subscribers) subscriber();
  }

  /** Calls `fn` on every notification (the webhook dispatcher); returns the unsubscribe. */
  subscribe(fn: () => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  waitForChange(ms: number, since: number): Promise<void> {
    if (this.stopping || this.version !== since || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }

  /** Shutdown: every long-poll answers now, and later ones do not wait. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.notify();
    await this.unlisten?.();
    this.unlisten = undefined;
  }
}
