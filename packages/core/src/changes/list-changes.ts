import { type FeedPosition, isFeedPosition, readChanges } from '@directory/db';
import { authenticate, bootstrapVerifier } from '../auth.ts';
import { decodeCursor, encodeCursor, feedCursor } from '../domain/cursor.ts';
import { AppError } from '../errors.ts';
import { type Context, keyedProcedure, readDbOf } from '../trpc.ts';
import { pollingFeed, toChange } from './feed.ts';
import { ListChangesInput, ListChangesOutput, listChangesMeta } from './list-changes.types.ts';

// Committed changes behind a transaction that is still open are re-read while a long-poll
// waits (their commit sent its notification already; the open transaction's end may send
// none): after 2 ms, doubling up to 50 ms, so a short transaction costs little latency and a
// long one few reads.
const HELD_BACK_FIRST_MS = 2;
const HELD_BACK_MAX_MS = 50;
// A waiting long-poll checks its key this often: a revoke ends it with 401 within a second (the
// key store keeps a lookup 500 ms; docs/keys-and-limits.md#revoking-a-key).
const KEY_CHECK_MS = 250;

/** 401 once the request's key is no longer valid (revoked or expired while it waited). */
async function keyStillValid(ctx: Context): Promise<void> {
  await authenticate(ctx.credentials, ctx.keys ?? bootstrapVerifier(ctx.apiKey));
}
// Read from a standby (docs/operating.md#standbys), a change's notification can come before
// the standby has replayed it: after a notification, look again every 50 ms for 2 s.
const STANDBY_RECHECK_MS = 50;
const STANDBY_RECHECK_FOR_MS = 2_000;

/**
 * A cursor this feed never gave out cannot be honoured: 410, never an empty feed that skips
 * changes (docs/changes-and-webhooks.md#cursors-that-cannot-be-honoured). A standby that has
 * not replayed the cursor's change yet does not decide: the primary does.
 */
async function checkHonoured(ctx: Context, after: FeedPosition): Promise<void> {
  const db = readDbOf(ctx);
  if (await isFeedPosition(db, after)) return;
  if (db !== ctx.db && (await isFeedPosition(ctx.db, after))) return;
  throw new AppError('GONE', [
    'cursor: This directory never gave out this cursor (restored from a backup older than the cursor, or moved to another database), so following it would skip changes; read the current state again (an export or the list) and follow the feed from the beginning, without `after`',
  ]);
}

export const listChanges = keyedProcedure
  .meta(listChangesMeta)
  .input(ListChangesInput)
  .output(ListChangesOutput)
  .query(async ({ ctx, input }) => {
    const feed = ctx.feed ?? pollingFeed;
    const after = input.after === undefined ? undefined : decodeCursor(feedCursor, input.after);
    if (after !== undefined) await checkHonoured(ctx, after);
    const deadline = Date.now() + input.wait * 1000;
    let heldBackMs = HELD_BACK_FIRST_MS;
    let recheckUntil = 0;
    for (;;) {
      const since = feed.version;
      // Each read takes a pooled connection for one statement only; waiting holds none.
      const db = readDbOf(ctx);
      const page = await readChanges(db, after, input.limit + 1);
      if (page.expired) {
        throw new AppError('GONE', [
          'cursor: Changes after this cursor are no longer retained; read the current state and follow the feed without `after`',
        ]);
      }
      const remaining = deadline - Date.now();
      if (page.changes.length > 0 || remaining <= 0 || feed.stopping) {
        const changes = page.changes.slice(0, input.limit);
        const last = changes.at(-1);
        return {
          success: true as const,
          changes: changes.map(toChange),
          nextCursor: encodeCursor(feedCursor, last ?? after ?? page.retainedFrom),
          hasMore: page.changes.length > input.limit,
        };
      }
      if (page.heldBack) {
        await feed.waitForChange(Math.min(remaining, heldBackMs, KEY_CHECK_MS), since);
        heldBackMs = Math.min(HELD_BACK_MAX_MS, heldBackMs * 2);
        await keyStillValid(ctx);
      } else if (Date.now() < recheckUntil) {
        await feed.waitForChange(Math.min(remaining, STANDBY_RECHECK_MS), since);
        await keyStillValid(ctx);
      } else {
        const until = Date.now() + remaining;
        do {
          await feed.waitForChange(Math.min(until - Date.now(), KEY_CHECK_MS), since);
          await keyStillValid(ctx);
        } while (feed !== pollingFeed && feed.version === since && !feed.stopping && Date.now() < until);
      }
      if (db !== ctx.db && feed.version !== since) recheckUntil = Date.now() + STANDBY_RECHECK_FOR_MS;
    }
  });
