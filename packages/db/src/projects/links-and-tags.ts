import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../tables.ts';
import {
  diffLinksAndTags,
  type LinksAndTags,
  type LinksAndTagsDiff,
  type NewLink,
  type StoredLink,
  type StoredTagLink,
} from './diff.ts';

type Db = Kysely<Database>;

/** The stored links and tag associations of the given projects: one index lookup per project. */
async function findLinksAndTags(db: Db, projectIds: string[]) {
  if (projectIds.length === 0) return { links: [] as StoredLink[], tags: [] as StoredTagLink[] };
  const result = await sql<{ links: StoredLink[] | null; tags: StoredTagLink[] | null }>`
    select
      (select json_agg(l) from unnest(${projectIds}::text[]) as p(id)
        cross join lateral (select id, project_id, url, url_key, type, title, position from links where project_id = p.id) l
      ) as links,
      (select json_agg(t) from unnest(${projectIds}::text[]) as p(id)
        cross join lateral (select project_id, tag_id, position from project_tags where project_id = p.id) t
      ) as tags
  `.execute(db);
  const row = result.rows[0];
  return { links: row?.links ?? [], tags: row?.tags ?? [] };
}

/**
 * Makes each project's links and tag associations exactly the given lists, positions in list
 * order (replacement, not merge), for a whole batch: one read and one write. Only what differs
 * is written (diff.ts): a stored link whose url key is submitted again keeps its row (and id) and
 * is updated in place when its spelling, type, title or position changed; the rest are deleted or
 * inserted. An update that repeats a project's links and tags therefore writes none of them.
 */
export async function replaceLinksAndTags(
  db: Db,
  projects: LinksAndTags[],
  /** Ids for the links that are inserted (a kept link keeps its id); a revert passes the revision's. */
  newId: (link: NewLink) => string,
): Promise<void> {
  if (projects.length === 0) return;
  const stored = await findLinksAndTags(
    db,
    projects.filter((p) => !p.isNew).map((p) => p.projectId),
  );
  const diff = diffLinksAndTags(projects, stored, newId);
  const { linkInserts, linkUpdates, linkDeletes, tagInserts, tagUpdates, tagDeletes } = diff;
  const writes = [linkInserts, linkUpdates, linkDeletes, tagInserts, tagUpdates, tagDeletes];
  if (writes.every((rows) => rows.length === 0)) return;

  await sql`
    with ${linksAndTagsWrites(diff)}
    select 1
    where (select count(*) from inserted_links) >= 0 and (select count(*) from updated_tags) >= 0
  `.execute(db);
}

/**
 * The writes of a links-and-tags diff as common table expressions (deleted_links, deleted_tags,
 * updated_links, updated_tags, inserted_tags, inserted_links), for a statement of its own or the
 * batch's (write-batch.ts). Deletes run before the inserts (which read them), so a url can move
 * between positions; the statement that holds them must read inserted_links and updated_tags.
 */
export function linksAndTagsWrites(d: LinksAndTagsDiff): RawBuilder<unknown> {
  return sql`
      deleted_links as (delete from links where id = any(${d.linkDeletes}::text[]) returning 1),
      deleted_tags as (
        delete from project_tags pt
        using unnest(${d.tagDeletes.map((t) => t.project_id)}::text[], ${d.tagDeletes.map((t) => t.tag_id)}::text[])
          as x(project_id, tag_id)
        where pt.project_id = x.project_id and pt.tag_id = x.tag_id
        returning 1
      ),
      updated_links as (
        update links l set url = u.url, type = u.type, title = u.title, position = u.position
        from unnest(
          ${d.linkUpdates.map((l) => l.id)}::text[], ${d.linkUpdates.map((l) => l.url)}::text[],
          ${d.linkUpdates.map((l) => l.type)}::text[], ${d.linkUpdates.map((l) => l.title)}::text[],
          ${d.linkUpdates.map((l) => l.position)}::int[]
        ) as u(id, url, type, title, position)
        where l.id = u.id
        returning 1
      ),
      updated_tags as (
        update project_tags pt set position = u.position
        from unnest(
          ${d.tagUpdates.map((t) => t.project_id)}::text[], ${d.tagUpdates.map((t) => t.tag_id)}::text[],
          ${d.tagUpdates.map((t) => t.position)}::int[]
        ) as u(project_id, tag_id, position)
        where pt.project_id = u.project_id and pt.tag_id = u.tag_id
        returning 1
      ),
      inserted_tags as (
        insert into project_tags (project_id, tag_id, position)
        select u.project_id, u.tag_id, u.position
        from unnest(
          ${d.tagInserts.map((t) => t.project_id)}::text[], ${d.tagInserts.map((t) => t.tag_id)}::text[],
          ${d.tagInserts.map((t) => t.position)}::int[]
        ) as u(project_id, tag_id, position)
        where (select count(*) from deleted_tags) >= 0
        returning 1
      ),
      inserted_links as (
        insert into links (id, project_id, type, url, url_key, title, position)
        select u.id, u.project_id, u.type, u.url, u.url_key, u.title, u.position
        from unnest(
          ${d.linkInserts.map((l) => l.id)}::text[], ${d.linkInserts.map((l) => l.project_id)}::text[],
          ${d.linkInserts.map((l) => l.type)}::text[], ${d.linkInserts.map((l) => l.url)}::text[],
          ${d.linkInserts.map((l) => l.url_key)}::text[], ${d.linkInserts.map((l) => l.title)}::text[],
          ${d.linkInserts.map((l) => l.position)}::int[]
        ) as u(id, project_id, type, url, url_key, title, position)
        where (select count(*) from deleted_links) >= 0 and (select count(*) from updated_links) >= 0
          and (select count(*) from inserted_tags) >= 0
        returning 1
      )`;
}
