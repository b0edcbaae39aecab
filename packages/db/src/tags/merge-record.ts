import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/**
 * Records a merge of `from` into `into` before it moves anything (the caller holds the vocabulary
 * lock and the projects' row locks): the aliases `from` has, and each project's tags in order,
 * so that an unmerge can give them back (docs/curation.md#undoing-a-merge). Replaces the record
 * of an earlier merge of `from` (one that was undone since).
 */
export async function recordMerge(db: Db, from: string, into: string, projectIds: string[]): Promise<void> {
  await sql`delete from tag_merges where tag_id = ${from}`.execute(db);
  await sql`
    insert into tag_merges (tag_id, into_id, aliases)
    select ${from}, ${into}, coalesce(array_agg(t.id order by t.id), '{}') from tags t where t.alias_of = ${from}
  `.execute(db);
  if (projectIds.length === 0) return;
  await sql`
    insert into tag_merge_projects (tag_id, project_id, tags)
    select ${from}, pt.project_id, array_agg(pt.tag_id order by pt.position, pt.tag_id)
    from project_tags pt where pt.project_id = any(${projectIds}::text[])
    group by pt.project_id
  `.execute(db);
}

/** The revision numbers the merge of `from` stored, by project. */
export async function setMergeRevisions(db: Db, from: string, revisions: Map<string, number>): Promise<void> {
  if (revisions.size === 0) return;
  await sql`
    update tag_merge_projects m set revision = u.revision
    from unnest(${[...revisions.keys()]}::text[], ${[...revisions.values()]}::int[]) as u(project_id, revision)
    where m.tag_id = ${from} and m.project_id = u.project_id
  `.execute(db);
}
