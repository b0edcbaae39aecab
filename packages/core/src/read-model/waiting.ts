import type { FeedServices } from '../changes/feed.ts';
import { HELD_BACK_RETRY_MS } from './follow.ts';

/** A timer that does not keep the process alive. */
export function timer(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
  });
}

/**
 * The follower's pause between two reads of the feed: `ms`, or less when the feed signals a
 * change (LISTEN) or `wake` is called. Returns the pause and its wake-up.
 */
export function pause(
  feed: FeedServices,
  ms: number,
  since: number,
): { done: Promise<void>; wake: () => void } {
  let wake: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    let finished = false;
    wake = () => {
      if (finished) return;
      finished = true;
      resolve();
    };
    if (ms <= HELD_BACK_RETRY_MS) {
      const t = setTimeout(wake, ms);
      t.unref?.();
      return;
    }
    // a feed that answers without a change (a poller, a stub) is not allowed to spin the loop
    const started = Date.now();
    void feed.waitForChange(ms, since).then(() => {
      const early = Math.min(ms, 100) - (Date.now() - started);
      if (feed.version !== since || early <= 0 || feed.stopping) return wake();
      const t = setTimeout(wake, early);
      t.unref?.();
    });
  });
  return { done, wake };
}
