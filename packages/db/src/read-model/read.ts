import type { IndexedProject, IndexedTag } from '@directory/search';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { parseSnapshot, type Snapshot } from './snapshot.ts';
import { readSynonyms, type Synonyms } from './synonyms.ts';

type Db = Kysely<Database>;

// What the search read model (core/read-model) reads: the projects and tags it indexes, at
// start from one consistent snapshot and then by id as the change feed names them, the page
// rows its detail cache misses, and the synonyms.

/**
 * What the directory knows of a project's standing (docs/search.md#signals-and-standing): its
 * signals, and whether a person keeps it (locked now, merged into, or ever edited, reverted,
 * restored or locked by hand). Core's standing function turns them into the index's `standing`.
 */
export interface StandingFacts {
  stars: number | null;
  downloads: number | null;
  kept: boolean;
}

/** A project and a tag as the search index takes them (times as epoch ms, with microseconds). */
export type IndexedProjectRow = IndexedProject & StandingFacts;
export type IndexedTagRow = IndexedTag;

/** Whether a person keeps project `p` (StandingFacts.kept): one index lookup each. */
export const KEPT = sql`(p.lock_fields is not null
  or exists (select 1 from project_aliases a where a.project_id = p.id)
  or exists (select 1 from project_revisions r where r.project_id = p.id
    and r.via in ('edit', 'revert', 'restore', 'lock', 'merge')))`;

const PROJECT_SELECT = sql`p.id, p.name, p.name_en as "nameEn", p.slug, p.description,
  p.description_en as "descriptionEn", p.status, p.source,
  (extract(epoch from p.created_at) * 1000)::float8 as "createdAt",
  (extract(epoch from p.updated_at) * 1000)::float8 as "updatedAt",
  coalesce((select array_agg(pt.tag_id order by pt.position) from project_tags pt where pt.project_id = p.id), '{}') as "tagIds",
  coalesce((select array_agg(l.type) from links l where l.project_id = p.id), '{}') as "linkTypes",
  coalesce((select array_agg(l.url order by l.position) from links l where l.project_id = p.id), '{}') as "linkUrls",
  p.stars, p.downloads, ${KEPT} as kept`;

// a merged tag (an alias) is not a tag of the model: its slug is one of its target's `aliases`
const TAG_SELECT = sql`t.id, t.name, t.name_en as "nameEn", t.slug,
  coalesce((select array_agg(a.slug order by a.slug) from tags a where a.alias_of = t.id), '{}') as aliases`;

/** Rows per statement of the build: big enough to amortise a round trip, small enough to stream. */
const BATCH = 20_000;

/**
 * Everything the model indexes, from one REPEATABLE READ snapshot: the snapshot itself (the
 * model follows the feed from there), every tag, then every project in id order, a batch at a
 * time (`onProjects` indexes each batch while the next is read), and the synonyms.
 */
export async function readModelSnapshot(
  db: Db,
  onTags: (tags: IndexedTagRow[]) => void,
  onProjects: (projects: IndexedProjectRow[]) => void,
): Promise<{ snapshot: Snapshot; synonyms: Synonyms }> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { rows } = await sql<{
        snapshot: string;
      }>`select pg_current_snapshot()::text as snapshot`.execute(trx);
      const snapshot = parseSnapshot(rows[0]!.snapshot);
      const tags =
        await sql<IndexedTagRow>`select ${TAG_SELECT} from tags t where t.alias_of is null order by t.id`.execute(
          trx,
        );
      onTags(tags.rows);
      // The next batch is asked for before this one is indexed: the database reads it while
      // the process indexes (one connection, so the statements still run one after the other).
      const batchAfter = (after: string): Promise<{ rows: IndexedProjectRow[] }> =>
        sql<IndexedProjectRow>`
          select ${PROJECT_SELECT} from projects p where p.id > ${after}::text order by p.id limit ${BATCH}::int
        `.execute(trx);
      let next: Promise<{ rows: IndexedProjectRow[] }> | undefined = batchAfter('');
      while (next) {
        const batch: { rows: IndexedProjectRow[] } = await next;
        const last: IndexedProjectRow | undefined = batch.rows[batch.rows.length - 1];
        next = last && batch.rows.length === BATCH ? batchAfter(last.id) : undefined;
        if (batch.rows.length > 0) onProjects(batch.rows);
      }
      return { snapshot, synonyms: await readSynonyms(trx) };
    });
}

/** The projects among `ids` as they are now (a missing id was deleted), and their tags. */
export async function readIndexedProjects(
  db: Db,
  ids: string[],
): Promise<{ projects: IndexedProjectRow[]; tags: IndexedTagRow[] }> {
  if (ids.length === 0) return { projects: [], tags: [] };
  const projects = await sql<IndexedProjectRow>`
    select ${PROJECT_SELECT} from unnest(${ids}::text[]) as u(id)
    cross join lateral (select * from projects where id = u.id limit 1) p
  `.execute(db);
  const tagIds = [...new Set(projects.rows.flatMap((p) => p.tagIds))];
  const tags =
    tagIds.length === 0
      ? { rows: [] }
      : await sql<IndexedTagRow>`
          select ${TAG_SELECT} from unnest(${tagIds}::text[]) as u(id)
          cross join lateral (select * from tags where id = u.id limit 1) t
        `.execute(db);
  return { projects: projects.rows, tags: tags.rows };
}

/**
 * The tags among `ids` as they are now (a tag.updated change names them), and those they were
 * merged into: `tags` the live ones, `aliases` the ids among `ids` that are merged tags.
 */
export async function readIndexedTags(
  db: Db,
  ids: string[],
): Promise<{ tags: IndexedTagRow[]; aliases: string[] }> {
  if (ids.length === 0) return { tags: [], aliases: [] };
  const { rows } = await sql<IndexedTagRow & { aliasOf: string | null }>`
    select ${TAG_SELECT}, t.alias_of as "aliasOf" from tags t
    where t.id = any(${ids}::text[])
      or t.id in (select a.alias_of from tags a where a.id = any(${ids}::text[]) and a.alias_of is not null)
  `.execute(db);
  return {
    tags: rows.filter((r) => r.aliasOf === null).map(({ aliasOf: _, ...tag }) => tag),
    aliases: rows.filter((r) => r.aliasOf !== null).map((r) => r.id),
  };
}

export interface ProjectChange {
  projectId: string;
  /** project.merged: the project it went into. */
  intoProjectId: string | null;
}

/** The project changes written by the given transactions (a process's own writes). */
export async function readChangesOfTransactions(db: Db, xids: string[]): Promise<ProjectChange[]> {
  if (xids.length === 0) return [];
  const { rows } = await sql<ProjectChange>`
    select c.project_id as "projectId", c.into_project_id as "intoProjectId"
    from changes c where c.xid = any(${xids}::xid8[]) and c.project_id is not null
  `.execute(db);
  return rows;
}

/** A project change of the running transaction: the feed's id is a version of the project (see ReadModel). */
export interface OwnProjectChange extends ProjectChange {
  id: number;
}

/**
 * The id of the transaction running on this connection, if it has written anything, and the
 * project changes it wrote to the feed so far (one index range of changes_xid_id_idx): what the
 * process's read model applies once the transaction commits, without reading the feed for it.
 */
export async function currentTransactionWrites(
  db: Db,
): Promise<{ xid: string | null; changes: OwnProjectChange[]; tagIds: string[] }> {
  const { rows } = await sql<{
    xid: string | null;
    changes: OwnProjectChange[] | null;
    tag_ids: string[] | null;
  }>`
    select x.xid::text as xid,
      (select json_agg(json_build_object('id', c.id, 'projectId', c.project_id, 'intoProjectId', c.into_project_id))
        from changes c where c.xid = x.xid and c.project_id is not null) as changes,
      (select array_agg(c.tag_id) from changes c where c.xid = x.xid and c.tag_id is not null) as tag_ids
    from (select pg_current_xact_id_if_assigned() as xid) x
  `.execute(db);
  return { xid: rows[0]?.xid ?? null, changes: rows[0]?.changes ?? [], tagIds: rows[0]?.tag_ids ?? [] };
}

/** The id of the transaction running on this connection, if it has written anything. */
export async function currentTransactionId(db: Db): Promise<string | null> {
  const { rows } = await sql<{ xid: string | null }>`
    select pg_current_xact_id_if_assigned()::text as xid
  `.execute(db);
  return rows[0]?.xid ?? null;
}
