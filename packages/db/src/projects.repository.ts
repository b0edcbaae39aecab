import { type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database, LinkType, NewProjectRow, ProjectRow } from './tables.ts';

type Db = Kysely<Database>;

export interface LinkDetail {
  id: string;
  type: LinkType;
  url: string;
  title: string | null;
}

export interface TagDetail {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
}

export type ProjectDetailRow = ProjectRow & { links: LinkDetail[]; tags: TagDetail[] };

/**
 * A project with its links and tags, in submitted order: one round trip. Lookups of a few
 * rows by key are written as LATERAL … LIMIT subqueries, which the planner does not flatten
 * into joins: they stay index lookups whatever the table statistics say (fresh databases,
 * bulk loads, autovacuum off), instead of turning into hash joins over whole tables.
 */
export async function findProjectDetailBySlug(db: Db, slug: string): Promise<ProjectDetailRow | undefined> {
  return db
    .selectFrom('projects as p')
    .selectAll('p')
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('links as l')
          .select(['l.id', 'l.type', 'l.url', 'l.title'])
          .whereRef('l.project_id', '=', 'p.id')
          .orderBy('l.position'),
      ).as('links'),
      jsonArrayFrom(
        eb
          .selectFrom('project_tags as pt')
          .innerJoinLateral(
            (eb) =>
              eb
                .selectFrom('tags')
                .select(['tags.id', 'tags.name', 'tags.name_en as nameEn', 'tags.slug'])
                .whereRef('tags.id', '=', 'pt.tag_id')
                .limit(1)
                .as('t'),
            (join) => join.onTrue(),
          )
          .select(['t.id', 't.name', 't.nameEn', 't.slug'])
          .whereRef('pt.project_id', '=', 'p.id')
          .orderBy('pt.position'),
      ).as('tags'),
    ])
    .where('p.slug', '=', slug)
    .executeTakeFirst();
}

export interface IdentityKeys {
  codehostUrls: string[];
  websiteUrls: string[];
  slug: string | null;
}

/**
 * Every stored project that the keys point at, best first: CODEHOST urls in submitted order,
 * then WEBSITE urls in submitted order, then the slug; among projects sharing one url the
 * oldest first. The ranking itself is core's rule (identity.ts); this query implements it
 * in one round trip and returns the winner.
 */
export async function findProjectByIdentity(db: Db, keys: IdentityKeys): Promise<{ id: string } | undefined> {
  const result = await sql<{ id: string }>`
    select p.id
    from (
      select l.project_id, 0 as kind, array_position(${keys.codehostUrls}::text[], l.url::text) as pos
        from links l where l.type = 'CODEHOST' and l.url = any(${keys.codehostUrls}::text[])
      union all
      select l.project_id, 1, array_position(${keys.websiteUrls}::text[], l.url::text)
        from links l where l.type = 'WEBSITE' and l.url = any(${keys.websiteUrls}::text[])
      union all
      select p.id, 2, 0 from projects p where p.slug = ${keys.slug}
    ) m
    join projects p on p.id = m.project_id
    order by m.kind, m.pos, p.created_at, p.id
    limit 1
  `.execute(db);
  return result.rows[0];
}

export type ProjectFields = Omit<NewProjectRow, 'id' | 'slug' | 'created_at' | 'updated_at'>;

export async function insertProject(
  db: Db,
  row: ProjectFields & { id: string; slug: string },
): Promise<{ id: string }> {
  return db.insertInto('projects').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Overwrites every field but id, slug and created_at. */
export async function updateProject(db: Db, id: string, fields: ProjectFields): Promise<void> {
  await db
    .updateTable('projects')
    .set({ ...fields, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export interface NewLink {
  id: string;
  type: LinkType;
  url: string;
  title: string | null;
}

/**
 * Makes the project's links and tag associations exactly the given lists, positions in list
 * order, in one statement: array parameters (unnest) keep the SQL text fixed whatever the
 * list lengths. The insert reads the delete CTEs so that the deletes run first.
 */
export async function replaceLinksAndTags(
  db: Db,
  projectId: string,
  links: NewLink[],
  tagIds: string[],
): Promise<void> {
  await sql`
    with
      deleted_links as (delete from links where project_id = ${projectId} returning 1),
      deleted_tags as (delete from project_tags where project_id = ${projectId} returning 1),
      inserted_tags as (
        insert into project_tags (project_id, tag_id, position)
        select ${projectId}, u.tag_id, u.i - 1
        from unnest(${tagIds}::text[]) with ordinality as u(tag_id, i)
        where (select count(*) from deleted_tags) >= 0
      )
    insert into links (id, project_id, type, url, title, position)
    select u.id, ${projectId}, u.type, u.url, u.title, u.i - 1
    from unnest(
      ${links.map((l) => l.id)}::text[],
      ${links.map((l) => l.type)}::text[],
      ${links.map((l) => l.url)}::text[],
      ${links.map((l) => l.title)}::text[]
    ) with ordinality as u(id, type, url, title, i)
    where (select count(*) from deleted_links) >= 0
  `.execute(db);
}

export interface DeletedProject {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  linksCount: number;
  tagsCount: number;
}

/**
 * Deletes a project by slug in one statement; links and tag associations go by cascade, tasks
 * keep their row with project_id null. The counts are read from the statement's snapshot,
 * which is taken before the delete.
 */
export async function deleteProjectBySlug(db: Db, slug: string): Promise<DeletedProject | undefined> {
  const result = await sql<DeletedProject>`
    with d as (delete from projects where slug = ${slug} returning id, name, name_en, slug)
    select d.id, d.name, d.name_en as "nameEn", d.slug,
      (select count(*) from links l where l.project_id = d.id)::int as "linksCount",
      (select count(*) from project_tags pt where pt.project_id = d.id)::int as "tagsCount"
    from d
  `.execute(db);
  return result.rows[0];
}
