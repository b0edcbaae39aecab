import { type ControlledTransaction, type Kysely, sql } from 'kysely';
import type { FeedPosition } from '../changes/read.ts';
import type { Database, ProjectStatus } from '../tables.ts';

type Db = Kysely<Database>;

/*
 * The reads of an export (docs/api.md#export-get-apiexport): every one inside one REPEATABLE READ
 * transaction, so that the header, the count and every line come from one snapshot.
 */

/**
 * A read-only REPEATABLE READ transaction on a connection of its own: its snapshot is taken by
 * its first statement and kept until it ends (the caller rolls it back; it writes nothing).
 */
export function beginSnapshot(db: Db): Promise<ControlledTransaction<Database>> {
  return db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
}

/** What the export's cursor is decided from (core's domain/export-cursor.ts), as of the snapshot. */
export interface SnapshotFacts {
  /** The snapshot's xmin: every transaction below it had ended. */
  xmin: string;
  /** The last change the snapshot sees, in the feed's (xid, id) order; undefined when it sees none. */
  last: FeedPosition | undefined;
  /** The retention mark (the last change removed; (0, 0) when none was). */
  retainedFrom: FeedPosition;
  /** The transaction's start, as the database's clock has it. */
  asOf: Date;
}

/**
 * Takes the snapshot (this is the transaction's first statement) and reads its facts, and
 * whether this key's export lock was free: a transaction-scoped advisory lock on the key, so
 * that one export per key runs at a time across every process sharing the database.
 */
export async function readSnapshotFacts(
  trx: Db,
  keyId: string,
): Promise<{ locked: boolean; facts: SnapshotFacts }> {
  const { rows } = await sql<{
    locked: boolean;
    xmin: string;
    last_xid: string | null;
    last_id: string | null;
    pruned_xid: string;
    pruned_id: string;
    as_of: Date;
  }>`
    select pg_try_advisory_xact_lock(hashtextextended(${`directory export ${keyId}`}, 0)) as locked,
      pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
      l.xid::text as last_xid, l.id::text as last_id,
      s.pruned_xid::text as pruned_xid, s.pruned_id::text as pruned_id, now() as as_of
    from change_feed_state s
    left join lateral (select c.xid, c.id from changes c order by c.xid desc, c.id desc limit 1) l on true
  `.execute(trx);
  const r = rows[0];
  if (!r) throw new Error('change_feed_state has no row');
  return {
    locked: r.locked,
    facts: {
      xmin: r.xmin,
      last: r.last_xid === null || r.last_id === null ? undefined : { xid: r.last_xid, id: r.last_id },
      retainedFrom: { xid: r.pruned_xid, id: r.pruned_id },
      asOf: r.as_of,
    },
  };
}

/** The list's filters (GET /api/projects), as the export applies them in SQL. */
export interface ExportFilter {
  status: ProjectStatus | undefined;
  /** Tag ids a project must all have (tagIdsOfSlugs); undefined: no tag filter. */
  tagIds: readonly string[] | undefined;
  /** Projects updated after this instant, compared in milliseconds as the list compares them. */
  updatedAfter: string | undefined;
  /** Only ids after this one (a resumed export). */
  after: string | undefined;
}

/**
 * The tag ids that the list's `tag` slugs stand for: a tag's own slug, or the slug of a tag
 * merged into it (the list filters merged slugs as their target). undefined when one slug
 * names no tag: then no project matches.
 */
export async function tagIdsOfSlugs(trx: Db, slugs: readonly string[]): Promise<string[] | undefined> {
  const wanted = [...new Set(slugs)];
  if (wanted.length === 0) return [];
  const { rows } = await sql<{ slug: string; id: string }>`
    select t.slug, coalesce(t.alias_of, t.id) as id from tags t where t.slug = any(${wanted}::text[])
  `.execute(trx);
  if (new Set(rows.map((r) => r.slug)).size < wanted.length) return undefined;
  return [...new Set(rows.map((r) => r.id))];
}

const where = (f: ExportFilter) => sql`
  true
  ${f.status === undefined ? sql`` : sql`and p.status = ${f.status}`}
  ${
    f.tagIds === undefined || f.tagIds.length === 0
      ? sql``
      : sql`and (select count(*) from project_tags pt
            where pt.project_id = p.id and pt.tag_id = any(${[...f.tagIds]}::text[])) = ${f.tagIds.length}`
  }
  ${
    f.updatedAfter === undefined
      ? sql``
      : sql`and date_trunc('milliseconds', p.updated_at) > ${f.updatedAfter}::timestamptz`
  }
  ${f.after === undefined ? sql`` : sql`and p.id > ${f.after}`}
`;

/** How many projects the export will write. */
export async function countExport(trx: Db, filter: ExportFilter): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from projects p where ${where(filter)}
  `.execute(trx);
  return rows[0]?.n ?? 0;
}

/** The next `limit` ids of the export, in id order: a keyset page (the projects' primary key). */
export async function exportIds(trx: Db, filter: ExportFilter, limit: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select p.id from projects p where ${where(filter)} order by p.id limit ${limit}
  `.execute(trx);
  return rows.map((r) => r.id);
}

/**
 * The slugs that lead to each of these projects (project_aliases: those of projects merged into
 * it), oldest first, by project id; a project with none is absent.
 */
export async function exportAliases(trx: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ project_id: string; slug: string }>`
    select project_id, slug from project_aliases where project_id = any(${[...ids]}::text[])
    order by project_id, created_at, slug
  `.execute(trx);
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const slugs = out.get(r.project_id);
    if (slugs) slugs.push(r.slug);
    else out.set(r.project_id, [r.slug]);
  }
  return out;
}
