/** What the queue counts on /metrics: tasks claimed, heartbeats, releases, reaped tasks, fenced refusals. */
export type QueueEvent = 'claimed' | 'heartbeat' | 'released' | 'reaped' | 'fenced';

type Waiter = () => void;
const waiters = new Set<Waiter>();

/**
 * Wakes the long-polling claims of this process: tasks may have become claimable (created,
 * released, retried). Claims in other processes find them at their next poll.
 */
export function notifyClaimable(): void {
  for (const wake of [...waiters]) wake();
}

/**
 * Resolves after `ms`, at a notifyClaimable() or when `signal` aborts, whichever is first. It
 * holds no database connection: a waiting claim costs a timer, not a pooled connection.
 */
export function waitForClaimable(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    waiters.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
