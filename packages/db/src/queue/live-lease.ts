import { type RawBuilder, type SqlBool, sql } from 'kysely';

/*
 * The live-lease condition of the queue (docs/workers.md#what-fencing-protects-and-what-it-cannot, the
 * moves in packages/core/src/domain/task-transitions.ts), written once for every statement that fences
 * on a lease: heartbeat, release, PATCH and complete with a token, and the reaper's opposite.
 * Unqualified columns of discovery_tasks: usable in a WHERE over that table alone, or beside
 * a CTE that has no such columns.
 */

/** This token, not expired: `lease_expires_at >= now()` (the reaper takes `< now()`). */
export const liveLease = (token: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(status = 'IN_PROGRESS' and lease_token = ${token} and lease_expires_at >= now())`;

/** A lease the reaper may take: expired before now. Racing with a fenced change on one row (its
 * lock orders them), exactly one of the two conditions holds on the row the other left. */
export const expiredLease: RawBuilder<SqlBool> = sql<SqlBool>`(status = 'IN_PROGRESS' and lease_token is not null and lease_expires_at < now())`;
