import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { insertTagChanges } from './curate.ts';

type Db = Kysely<Database>;

/** The record of the last merge of a tag, if it can be undone (migration 2026_11_29_001500_tag_merges). */
export async function findTagMerge(
  db: Db,
  tagId: string,
): Promise<{ intoId: string; aliases: string[] } | undefined> {
  const { rows } = await sql<{ into_id: string; aliases: string[] }>`
    select into_id, aliases from tag_merges where tag_id = ${tagId}
  `.execute(db);
  return rows[0] && { intoId: rows[0].into_id, aliases: rows[0].aliases };
}

export interface MovedProject {
  projectId: string;
  /** Its slug now, null if it was deleted since. */
  slug: string | null;
  /** Why its tags are left as they are, null when they are given back. */
  skip: 'deleted' | 'changed since the merge' | 'a tag of it was merged since' | null;
}

/**
 * Undoes the recorded merge of `tagId` (an alias of `targetId` now; the caller holds the vocabulary
 * lock): locks the projects the merge moved, gives back their tags as before the merge to those
 * whose latest revision is still the merge's (docs/decisions.md#what-changed-since-a-tag-merge-means),
 * stamps them updated, makes the tag live again with the aliases it had (those still aliases of
 * `targetId`), deletes the record, and writes the tags' changes. Returns every project the merge
 * moved, in id order, with why it was skipped.
 */
export async function unmergeTagRows(
  db: Db,
  tagId: string,
  targetId: string,
  aliases: string[],
): Promise<MovedProject[]> {
  await sql`
    select p.id from projects p
    where p.id in (select m.project_id from tag_merge_projects m where m.tag_id = ${tagId})
    order by p.id for update
  `.execute(db);
  const { rows } = await sql<{ project_id: string; slug: string | null; skip: MovedProject['skip'] }>`
    select m.project_id, p.slug,
      case
        when p.id is null then 'deleted'
        when m.revision = 0 or m.revision <> (select max(r.revision) from project_revisions r where r.project_id = m.project_id)
          then 'changed since the merge'
        when exists (select 1 from tags t where t.id = any(m.tags) and t.id <> ${tagId} and t.alias_of is not null)
          then 'a tag of it was merged since'
      end as skip
    from tag_merge_projects m left join projects p on p.id = m.project_id
    where m.tag_id = ${tagId}
    order by m.project_id
  `.execute(db);
  const restored = rows.filter((r) => r.skip === null).map((r) => r.project_id);
  // live first: the trigger of project_tags refuses a row naming an alias
  await sql`update tags set alias_of = null where id = ${tagId}`.execute(db);
  const { rows: back } = await sql<{ id: string }>`
    update tags set alias_of = ${tagId} where id = any(${aliases}::text[]) and alias_of = ${targetId} returning id
  `.execute(db);
  if (restored.length > 0) {
    await sql`delete from project_tags where project_id = any(${restored}::text[])`.execute(db);
    await sql`
      insert into project_tags (project_id, tag_id, position)
      select m.project_id, t.tag_id, (t.n - 1)::int
      from tag_merge_projects m, unnest(m.tags) with ordinality as t(tag_id, n)
      where m.tag_id = ${tagId} and m.project_id = any(${restored}::text[])
    `.execute(db);
    await sql`update projects set updated_at = now() where id = any(${restored}::text[])`.execute(db);
  }
  await sql`delete from tag_merges where tag_id = ${tagId}`.execute(db);
  await insertTagChanges(db, [tagId, ...back.map((b) => b.id), targetId]);
  return rows.map((r) => ({ projectId: r.project_id, slug: r.slug, skip: r.skip }));
}
