import type { RouterOutputs } from '@directory/core';
import { DirectoryError } from '../errors.ts';
import type { Change, ListChangesInput } from '../types.ts';

type ListChanges = (
  input: ListChangesInput,
  signal?: AbortSignal,
) => Promise<RouterOutputs['changes']['list']>;

export interface FollowOptions {
  /** Start after this cursor (a change's `cursor` or a page's `nextCursor`); absent: the oldest retained change. */
  after?: string;
  /** Stops the iteration (the request in flight is aborted); the loop then ends without an error. */
  signal?: AbortSignal;
  /** Changes per request, 1-1000 (default 100). */
  limit?: number;
  /** Seconds each request long-polls when there is nothing new, 1-30 (default 25). */
  wait?: number;
  /** Called when a request failed and will be tried again (network errors, 5xx, timeouts). */
  onError?: (error: DirectoryError) => void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Every change from `after` on, as it happens: reads pages with long-polling and resumes from
 * the last cursor it yielded, forever or until `signal` aborts. The feed is gap-free, so a
 * consumer that stores each change's `cursor` after handling it and passes the stored one as
 * `after` on restart sees every change exactly once. Transient failures are retried with
 * backoff (the cursor is kept); a refusal (400, 401, 410 Gone: the cursor is past retention)
 * ends the iteration with that DirectoryError.
 */
export async function* follow(
  list: ListChanges,
  options: FollowOptions = {},
): AsyncGenerator<Change, void, undefined> {
  const { signal, limit, wait = 25 } = options;
  let after = options.after;
  let failures = 0;
  while (!signal?.aborted) {
    let page: RouterOutputs['changes']['list'];
    try {
      page = await list({ after, limit, wait }, signal);
      failures = 0;
    } catch (err) {
      if (signal?.aborted) return;
      if (!(err instanceof DirectoryError) || (err.status >= 400 && err.status < 500 && err.status !== 429))
        throw err;
      options.onError?.(err);
      await sleep(Math.random() * Math.min(30_000, 500 * 2 ** failures++), signal);
      continue;
    }
    for (const change of page.changes) {
      yield change;
      after = change.cursor;
      if (signal?.aborted) return;
    }
    after = page.nextCursor;
  }
}
