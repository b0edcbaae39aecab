import { decodeCursor, encodeCursor, feedPositionToken } from '../domain/cursor.ts';
import { AppError } from '../errors.ts';

/*
 * The read model's position (docs/search.md#how-it-is-served-a-read-model-in-every-process, "Positions").
 * `horizon` is the feed's xmin at the model's last complete read: every transaction below it has ended and
 * its changes are applied. X-Directory-Position encodes it; a write's response encodes its own xid + 1.
 * `minPosition` waits for the horizon to pass it, or, in the process that wrote it, for its
 * own write to be applied (`ownApplied`).
 */

/** X-Directory-Position's value: opaque to clients. */
export const encodePosition = (horizon: bigint): string => encodeCursor(feedPositionToken, horizon);

export const decodePosition = (text: string): bigint => decodeCursor(feedPositionToken, text);

const notReached = () =>
  new AppError('UNAVAILABLE', [
    'minPosition: This process has not reached that position yet; retry after Retry-After seconds',
  ]);

export class Freshness {
  /** Every transaction below it has ended and its changes are applied. */
  horizon = 0n;
  /** This process's own transactions at or past the horizon whose changes are applied. */
  private readonly ownApplied = new Set<bigint>();
  private waiters: { at: bigint; wake: () => void }[] = [];

  /** A new build: its snapshot's xmin is where the model stands. */
  reset(horizon: bigint) {
    this.horizon = horizon;
  }

  /** The feed's xmin of a complete read: the horizon moves up to it. Returns whether it moved. */
  advance(xmin: bigint): boolean {
    if (xmin <= this.horizon) return false;
    this.horizon = xmin;
    for (const x of this.ownApplied) if (x < xmin) this.ownApplied.delete(x);
    this.wakeWaiters();
    return true;
  }

  /** These transactions of this process are applied. */
  markOwn(xids: string[]) {
    for (const x of xids) {
      const xid = BigInt(x);
      if (xid >= this.horizon) this.ownApplied.add(xid);
    }
    this.wakeWaiters();
  }

  /** Whether the model reflects position `at` (every transaction below it). */
  reached(at: bigint): boolean {
    return this.horizon >= at || this.ownApplied.has(at - 1n);
  }

  /**
   * Resolves once `at` is reached, waiting at most `ms` (else a 503 the client may retry).
   * `nudge` asks the follower to look at the feed now rather than at its next wake-up.
   */
  async waitFor(at: bigint, ms: number, nudge: () => void): Promise<void> {
    if (this.reached(at)) return;
    const ok = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        },
        Math.max(0, ms),
      );
      const waiter = {
        at,
        wake: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
      nudge();
    });
    if (!ok || !this.reached(at)) throw notReached();
  }

  /** Wakes every waiter (stopping): each looks at `reached` again. */
  wakeAll() {
    for (const w of this.waiters) w.wake();
    this.waiters = [];
  }

  private wakeWaiters() {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) (this.reached(w.at) ? w.wake : () => still.push(w))();
    this.waiters = still;
  }
}
