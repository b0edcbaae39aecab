import type { RouterOutputs } from '@directory/core';
import type { Change } from '@directory/sdk';
import { useEffect, useRef, useState } from 'react';
import { ApiError, request } from './api-client.ts';

type ChangesReply = RouterOutputs['changes']['list'];
type FeedState = 'connecting' | 'live' | 'unavailable';

/**
 * Follows GET /api/changes from now on: reads to the end of what is retained (keeping the last
 * `backlog` changes), then long-polls (`wait`), calling `onChanges` with each new batch.
 */
export function useChangeFeed(
  enabled: boolean,
  onChanges: (changes: Change[], initial: boolean) => void,
  backlog = 0,
): FeedState {
  const [state, setState] = useState<FeedState>('connecting');
  const handler = useRef(onChanges);
  handler.current = onChanges;
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const { signal } = controller;
    let failures = 0;
    (async () => {
      let cursor: string | null = null;
      let caughtUp = false;
      let kept: Change[] = [];
      while (!signal.aborted) {
        try {
          const after = cursor ?? undefined;
          const wait = caughtUp ? 25 : 0;
          const reply: ChangesReply = await request(
            (client) => client.changes.list({ ...(after && { after }), wait, limit: 1000 }),
            { key: true, signal },
          );
          failures = 0;
          if (reply.nextCursor) cursor = reply.nextCursor;
          if (!caughtUp) {
            if (backlog > 0) kept = [...kept, ...reply.changes].slice(-backlog);
            if (!reply.hasMore) {
              caughtUp = true;
              setState('live');
              handler.current(kept, true);
            }
          } else if (reply.changes.length > 0) {
            handler.current(reply.changes, false);
          }
        } catch (err) {
          if (signal.aborted) return;
          // Not on this server (404), or the key was refused (401): stop; else back off and go on.
          if (err instanceof ApiError && (err.status === 404 || err.status === 401 || err.status === 405)) {
            setState('unavailable');
            return;
          }
          if (err instanceof ApiError && err.status === 410) {
            // Our place fell out of retention: start over from the oldest change kept.
            cursor = null;
            caughtUp = false;
            kept = [];
          }
          failures += 1;
          await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** failures)));
        }
      }
    })();
    return () => controller.abort();
  }, [enabled, backlog]);
  return state;
}
