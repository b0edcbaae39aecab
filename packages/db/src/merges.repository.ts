import { type Kysely, sql } from 'kysely';
import type { Database, LinkType } from './tables.ts';

type Db = Kysely<Database>;

/** The project an alias slug now names (the final target of every merge it went through). */
export async function findAliasTarget(
  db: Db,
  slug: string,
): Promise<{ projectId: string; slug: string } | undefined> {
  const { rows } = await sql<{ projectId: string; slug: string }>`
    select p.id as "projectId", p.slug from project_aliases a join projects p on p.id = a.project_id
    where a.slug = ${slug}
  `.execute(db);
  return rows[0];
}

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

/** The slug's project id without locking it (to decide which locks to take first). */
export async function findProjectIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`select id from projects where slug = ${slug}`.execute(db);
  return rows[0]?.id;
}

/**
 * Moves one project into another, in one statement (EXTENSIONS E): the source's links whose key
 * the target lacks and its tags the target lacks are appended to the target's (in their order),
 * tasks pointing at the source point at the target, the source's aliases move on to the target,
 * the source's slug becomes an alias of the target, and the source is deleted (its remaining
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

export interface DuplicateGroup {
  reason: 'link' | 'name';
  key: string;
  projects: { id: string; slug: string; name: string; nameEn: string | null }[];
}

// The normalised name of GET /api/projects/duplicates: exactly the expression of the indexes
// projects_name_key_idx and projects_name_en_key_idx (migration 2026_11_25_000710_merges).
const nameKey = (column: 'name' | 'name_en') =>
  sql`(lower(regexp_replace(${sql.ref(column)}, '[[:space:][:punct:]]+', '', 'g')) collate "C")`;

const GROUP_PROJECTS = sql`json_build_object('id', p.id, 'slug', p.slug, 'name', p.name, 'nameEn', p.name_en)
  order by p.created_at, p.id`;

/**
 * Up to `limit` groups of projects that share a link key, in key order after `after`, each with
 * its projects (oldest first). The url_key index gives the keys in order, so a page reads only
 * as far as it needs.
 */
export async function findLinkDuplicates(
  db: Db,
  after: string | undefined,
  limit: number,
): Promise<DuplicateGroup[]> {
  const { rows } = await sql<DuplicateGroup>`
    select 'link' as reason, g.key, (
      select json_agg(${GROUP_PROJECTS}) from projects p
      where p.id in (select project_id from links where url_key = g.key)
    ) as projects
    from (
      select url_key as key from links
      where url_key > ${after ?? ''}
      group by url_key having count(*) > 1
      order by url_key limit ${limit}
    ) g
    order by g.key
  `.execute(db);
  return rows;
}

/**
 * Up to `limit` groups of projects whose name or English name normalise to the same key (lower
 * case, no spaces or punctuation), in key order after `after`, each with its projects.
 */
export async function findNameDuplicates(
  db: Db,
  after: string | undefined,
  limit: number,
): Promise<DuplicateGroup[]> {
  const { rows } = await sql<DuplicateGroup>`
    select 'name' as reason, g.key, (
      select json_agg(${GROUP_PROJECTS}) from projects p
      where ${nameKey('name')} = g.key or (p.name_en is not null and ${nameKey('name_en')} = g.key)
    ) as projects
    from (
      select k.key from (
        select ${nameKey('name')} as key, id from projects
        union all
        select ${nameKey('name_en')} as key, id from projects where name_en is not null
      ) k
      where k.key > ${after ?? ''}
      group by k.key having count(distinct k.id) > 1
      order by k.key limit ${limit}
    ) g
    order by g.key
  `.execute(db);
  return rows;
}
