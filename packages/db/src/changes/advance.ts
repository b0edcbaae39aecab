import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

// Transactions spent per statement while advancing: each is an empty commit of its own.
const CHUNK = 10_000;
// How far change ids jump on a new cluster: more changes than the old cluster can have written
// after its backup, so none of its later positions is ever given out again here.
const ID_GAP = 1_000_000_000_000n;

export interface FeedAdvance {
  /** The data came from another cluster (a restore or a copy): change ids jumped by ID_GAP. */
  moved: boolean;
  /** Transaction ids spent so that new positions order after every stored one. */
  spent: number;
}

/**
 * Keeps the change feed's positions (transaction id, change id: the migration
 * 2026_11_23_000300_changes) ordered across a restore or a copy into another cluster
 * (docs/operating.md#backups). A cluster made by initdb starts its transaction counter low:
 * after pg_restore of a backup there, new changes would sort before the old ones and a follower
 * resuming from its cursor would receive nothing. So, at start:
 * - when the next transaction id is not past the largest stored position, it spends transaction
 *   ids (empty commits in a server-side loop, about 80,000 a second) until it is;
 * - on a cluster other than the one the feed was last written on, it moves the change ids on by
 *   ID_GAP, so that a cursor the old cluster gave out after the backup names no change here and
 *   is answered 410 (changes/read.ts isFeedPosition), never followed past changes it skips.
 * On the cluster the data was written on (a standby promoted included) it changes nothing.
 * Runs outside any transaction block: each step of the loop commits.
 */
export async function advancePastFeed(db: Kysely<Database>): Promise<FeedAdvance> {
  const { rows } = await sql<{ cluster: string | null; here: string }>`
    select s.cluster, (select system_identifier::text from pg_control_system()) as here
    from change_feed_state s
  `.execute(db);
  const state = rows[0];
  if (!state) return { moved: false, spent: 0 };
  const moved = state.cluster !== null && state.cluster !== state.here;
  if (moved) {
    await sql`
      select setval(pg_get_serial_sequence('changes', 'id'),
        greatest((select max(id) from changes), (select pruned_id from change_feed_state), 0) + ${String(ID_GAP)}::bigint)
    `.execute(db);
  }
  let spent = 0;
  for (;;) {
    const { rows: at } = await sql<{ top: string | null; next: string }>`
      select greatest(
          (select c.xid from changes c order by c.xid desc limit 1),
          (select s.pruned_xid from change_feed_state s)
        )::text as top,
        pg_snapshot_xmax(pg_current_snapshot())::text as next
    `.execute(db);
    const row = at[0];
    const missing = row?.top == null ? 0n : BigInt(row.top) + 1n - BigInt(row.next);
    if (missing <= 0n) break;
    const n = Number(missing > BigInt(CHUNK) ? BigInt(CHUNK) : missing);
    // No parameters in a DO block: n is an integer made here. Each step gives its transaction
    // an id and commits; a commit need not wait for the disk.
    await sql
      .raw(
        `do $$ begin for i in 1..${n} loop set local synchronous_commit = off; perform pg_current_xact_id(); commit; end loop; end $$`,
      )
      .execute(db);
    spent += n;
  }
  if (state.cluster !== state.here) {
    await sql`update change_feed_state set cluster = ${state.here}`.execute(db);
  }
  return { moved, spent };
}
