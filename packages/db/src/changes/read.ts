import { type Kysely, sql } from 'kysely';
import type { ChangeType, Database } from '../tables.ts';

type Db = Kysely<Database>;

/** The channel the change triggers NOTIFY on (migration 2026_11_23_000300_changes). */
export const CHANGES_CHANNEL = 'directory_changes';

/** A position in the feed: the (xid, id) of the last change read; (0, 0) is the beginning. */
export interface FeedPosition {
  xid: string;
  id: string;
}

export const FEED_START: FeedPosition = { xid: '0', id: '0' };

export interface ChangeRecord {
  id: string;
  xid: string;
  type: ChangeType;
  at: Date;
  projectId: string | null;
  slug: string | null;
  taskId: string | null;
  /** project.merged: the project it went into. */
  intoProjectId: string | null;
  intoSlug: string | null;
  /** tag.updated: the tag renamed or merged. */
  tagId: string | null;
}

export interface ChangePage {
  /** Changes after the position that are final (every transaction below them has ended), in order. */
  changes: ChangeRecord[];
  /** Committed changes exist after these that are not final yet (an older transaction is still open). */
  heldBack: boolean;
  /** The position is before the last change removed by retention. */
  expired: boolean;
  /** The last change removed by retention: where a reader without a cursor starts. */
  retainedFrom: FeedPosition;
  /**
   * The read's snapshot xmin: every transaction below it had ended. When the page is not full
   * and nothing was held back, the reader has seen every change below it.
   */
  xmin: string;
  /** The read's snapshot xmax: every transaction that had an xid before the read is below it. */
  xmax: string;
}

/**
 * Up to `limit` changes after `after`, in (xid, id) order, reading only below the snapshot's
 * xmin (see the migration 2026_11_23_000300_changes for why that is gap-free). One statement, so
 * the retention check and the page come from one snapshot. The row comparison on (xid, id) is
 * an index range scan on changes_xid_id_idx.
 */
export async function readChanges(
  db: Db,
  after: FeedPosition | undefined,
  limit: number,
): Promise<ChangePage> {
  const from = after ?? FEED_START;
  const { rows } = await sql<{
    expired: boolean;
    pruned_xid: string;
    pruned_id: string;
    snapshot_xmin: string;
    snapshot_xmax: string;
    id: string | null;
    xid: string | null;
    type: ChangeType | null;
    at: Date | null;
    project_id: string | null;
    slug: string | null;
    task_id: string | null;
    into_project_id: string | null;
    into_slug: string | null;
    tag_id: string | null;
    ready: boolean | null;
  }>`
    select ${after !== undefined} and (s.pruned_xid, s.pruned_id) > (${from.xid}::xid8, ${from.id}::bigint) as expired,
      s.pruned_xid::text as pruned_xid, s.pruned_id::text as pruned_id,
      pg_snapshot_xmin(pg_current_snapshot())::text as snapshot_xmin,
      pg_snapshot_xmax(pg_current_snapshot())::text as snapshot_xmax, p.*
    from change_feed_state s
    left join lateral (
      select c.id::text as id, c.xid::text as xid, c.type, c.at, c.project_id, c.slug, c.task_id, c.into_project_id, c.into_slug, c.tag_id,
        c.xid < pg_snapshot_xmin(pg_current_snapshot()) as ready
      from changes c
      where (c.xid, c.id) > (${from.xid}::xid8, ${from.id}::bigint)
      order by c.xid, c.id
      limit ${limit}
    ) p on true
  `.execute(db);
  const changes: ChangeRecord[] = [];
  let heldBack = false;
  for (const r of rows) {
    if (r.id === null || r.xid === null || r.type === null || r.at === null) continue;
    // Rows not below xmin sort after every row that is: the first one ends the page.
    if (!r.ready) {
      heldBack = true;
      break;
    }
    changes.push({
      id: r.id,
      xid: r.xid,
      type: r.type,
      at: r.at,
      projectId: r.project_id,
      slug: r.slug,
      taskId: r.task_id,
      intoProjectId: r.into_project_id,
      intoSlug: r.into_slug,
      tagId: r.tag_id,
    });
  }
  const mark = rows[0];
  return {
    changes,
    heldBack,
    expired: mark?.expired ?? false,
    retainedFrom: mark ? { xid: mark.pruned_xid, id: mark.pruned_id } : FEED_START,
    xmin: mark?.snapshot_xmin ?? '0',
    xmax: mark?.snapshot_xmax ?? '0',
  };
}

/**
 * Whether `at` is a position this feed gave out: the beginning, a position at or before the
 * retention mark, or a change it holds. Every cursor the feed answers names one of these, so
 * any other (one from the same directory before it was restored from an older backup, or from
 * another directory) cannot be honoured: following it would skip changes without a word
 * (docs/changes-and-webhooks.md#cursors-that-cannot-be-honoured). One index lookup.
 */
export async function isFeedPosition(db: Db, at: FeedPosition): Promise<boolean> {
  const { rows } = await sql<{ known: boolean }>`
    select (${at.xid}::xid8, ${at.id}::bigint) <= (s.pruned_xid, s.pruned_id)
      or exists (select 1 from changes c where c.xid = ${at.xid}::xid8 and c.id = ${at.id}::bigint) as known
    from change_feed_state s
  `.execute(db);
  return rows[0]?.known ?? false;
}

/** Age in seconds of the oldest change still waiting for a webhook delivery (0 when none). */
export async function oldestUndeliveredAge(db: Db): Promise<number> {
  const { rows } = await sql<{ age: number | null }>`
    select extract(epoch from now() - min(c.at))::float8 as age
    from webhook_deliveries d join changes c on c.id = d.change_id
    join webhooks w on w.id = d.webhook_id and w.enabled
    where d.status = 'PENDING'
  `.execute(db);
  return Math.max(0, rows[0]?.age ?? 0);
}
