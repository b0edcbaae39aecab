import { type Kysely, sql } from 'kysely';
import type { Database, LinkType } from '../tables.ts';

type Db = Kysely<Database>;

export interface MergeParty {
  id: string;
  slug: string;
  links: { type: LinkType; urlKey: string }[];
}

/**
 * A project by slug with the type and key of each link; with `lock`, its row is locked until the
 * transaction ends (and the links are read after the lock is granted).
 */
export async function findMergeParty(db: Db, slug: string, lock: boolean): Promise<MergeParty | undefined> {
  const { rows } = await sql<MergeParty>`
    select p.id, p.slug, coalesce(
      (select json_agg(json_build_object('type', l.type, 'urlKey', l.url_key) order by l.position)
       from links l where l.project_id = p.id), '[]') as links
    from projects p where p.slug = ${slug}
    ${lock ? sql`for update of p` : sql``}
  `.execute(db);
  return rows[0];
}

/**
 * Moves one project into another, in one statement (docs/curation.md#same-project-other-spelling): the
 * source's links whose key the target lacks and its tags the target lacks are appended to the target's (in
 * their order), tasks pointing at the source point at the target, the source's aliases move on to the
 * target, the source's slug becomes an alias of the target, and the source is deleted (its remaining
 * links and tag associations go by cascade; the feed's trigger, finding the alias, records
 * `project.merged`). The target row itself is the caller's to update. Both rows must be locked
 * by the caller. Returns how many links and tags moved.
 *
 * The steps are data-modifying CTEs: they all see the snapshot from before the statement, so
 * each reads the source's and the target's rows as they were, and the delete comes last by
 * depending on the others' results.
 */
export async function mergeProjectRows(
  db: Db,
  source: { id: string; slug: string },
  target: { id: string },
): Promise<{ linksMoved: number; tagsMoved: number }> {
  const { rows } = await sql<{ links_moved: number; tags_moved: number }>`
    with
      link_base as (select coalesce(max(position) + 1, 0) as n from links where project_id = ${target.id}),
      tag_base as (select coalesce(max(position) + 1, 0) as n from project_tags where project_id = ${target.id}),
      link_moves as (
        select s.id, row_number() over (order by s.position) - 1 as i
        from links s
        where s.project_id = ${source.id}
          and not exists (select 1 from links t where t.project_id = ${target.id} and t.url_key = s.url_key)
      ),
      moved_links as (
        update links l set project_id = ${target.id}, position = (select n from link_base) + m.i
        from link_moves m where l.id = m.id
        returning 1
      ),
      moved_tags as (
        insert into project_tags (project_id, tag_id, position)
        select ${target.id}, s.tag_id, (select n from tag_base) + row_number() over (order by s.position) - 1
        from project_tags s
        where s.project_id = ${source.id}
          and not exists (select 1 from project_tags t where t.project_id = ${target.id} and t.tag_id = s.tag_id)
        returning 1
      ),
      moved_tasks as (
        update discovery_tasks set project_id = ${target.id} where project_id = ${source.id} returning 1
      ),
      moved_aliases as (
        update project_aliases set project_id = ${target.id} where project_id = ${source.id} returning 1
      ),
      alias as (
        insert into project_aliases (slug, project_id, merged_id)
        values (${source.slug}, ${target.id}, ${source.id})
        returning 1
      ),
      counts as (
        select (select count(*) from moved_links)::int as links_moved,
          (select count(*) from moved_tags)::int as tags_moved,
          (select count(*) from moved_tasks) + (select count(*) from moved_aliases)
            + (select count(*) from alias) as others
      ),
      removed as (
        delete from projects where id = ${source.id} and (select others from counts) >= 0 returning 1
      )
    select links_moved, tags_moved from counts where (select count(*) from removed) >= 0
  `.execute(db);
  const row = rows[0]!;
  return { linksMoved: row.links_moved, tagsMoved: row.tags_moved };
}
