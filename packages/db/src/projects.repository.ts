import { CompiledQuery, type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import {
  type Database,
  type LinkType,
  type NewProjectRow,
  PROJECT_COLUMNS,
  type ProjectRow,
} from './tables.ts';

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

/** A project's lock (EXTENSIONS F): the fields an upsert or complete keeps; null fields when unlocked. */
export interface LockColumns {
  lock_fields: string[] | null;
  lock_reason: string | null;
  lock_at: Date | null;
}

export type ProjectDetailRow = ProjectRow & LockColumns & { links: LinkDetail[]; tags: TagDetail[] };

/**
 * A project with its links and tags, in submitted order: one round trip. Lookups of a few
 * rows by key are written as LATERAL … LIMIT subqueries, which the planner does not flatten
 * into joins: they stay index lookups whatever the table statistics say (fresh databases,
 * bulk loads, autovacuum off), instead of turning into hash joins over whole tables.
 */
export async function findProjectDetailBySlug(db: Db, slug: string): Promise<ProjectDetailRow | undefined> {
  const { sql: text, parameters } = projectDetailStatement(db, slug);
  const result = await db.executeQuery<ProjectDetailRow>(CompiledQuery.raw(text, parameters));
  return result.rows[0];
}

// Built and compiled once per database: building this nested query took Kysely longer than
// PostgreSQL takes to run it. The slug is found among the parameters by a marker that no
// input can be (inputs never contain NUL).
const SLUG_MARKER = '\u0000slug';
const compiledDetail = new WeakMap<Db, { sql: string; parameters: readonly unknown[]; slugAt: number }>();

/**
 * The SQL text and parameters of findProjectDetailBySlug's query for one slug. Exported for
 * the benchmark's framework-free baseline, so that both run exactly the same statement.
 */
export function projectDetailStatement(db: Db, slug: string): { sql: string; parameters: unknown[] } {
  let compiled = compiledDetail.get(db);
  if (!compiled) {
    const { sql: text, parameters } = projectDetailBySlugQuery(db, SLUG_MARKER).compile();
    compiled = { sql: text, parameters, slugAt: parameters.indexOf(SLUG_MARKER) };
    compiledDetail.set(db, compiled);
  }
  const parameters = [...compiled.parameters];
  parameters[compiled.slugAt] = slug;
  return { sql: compiled.sql, parameters };
}

function projectDetailBySlugQuery(db: Db, slug: string) {
  return projectDetailQuery(db).where('p.slug', '=', slug);
}

/**
 * Several projects by id, as findProjectDetailBySlug reads one (in no particular order): one
 * round trip, one index lookup per id. `forUpdate` locks their rows until the transaction ends.
 */
export async function findProjectDetailsByIds(
  db: Db,
  ids: readonly string[],
  forUpdate = false,
): Promise<ProjectDetailRow[]> {
  if (ids.length === 0) return [];
  const query = projectDetailQuery(db).where('p.id', '=', sql<string>`any(${[...ids]}::text[])`);
  return (await (forUpdate ? query.forUpdate('p') : query).execute()) as ProjectDetailRow[];
}

/** Projects with their links and tags in the API's shape; the caller adds the where. */
export function projectDetailQuery(db: Db) {
  return db
    .selectFrom('projects as p')
    .select(PROJECT_COLUMNS.map((c) => `p.${c}` as const))
    .select(['p.lock_fields', 'p.lock_reason', 'p.lock_at'])
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
    ]);
}

export interface IdentityKeys {
  /** URL keys (core's urlKey) of the input's CODEHOST links, in submitted order. */
  codehostKeys: string[];
  websiteKeys: string[];
  slug: string | null;
}

/**
 * For each set of keys, the stored project it points at, or undefined: the first of its
 * CODEHOST url keys (in submitted order) stored as a CODEHOST link's key, else the first of its
 * WEBSITE keys among WEBSITE links, else its slug (or the project an alias slug names); among
 * projects sharing one key the oldest.
 * The ranking is core's rule (identity.ts); this query runs it for a whole batch in one round
 * trip. Each key is an index lookup (LATERAL … LIMIT, see findProjectDetailBySlug).
 */
export async function findProjectsByIdentity(
  db: Db,
  keysList: IdentityKeys[],
): Promise<({ id: string; slug: string; lockFields: string[] | null } | undefined)[]> {
  const items: number[] = [];
  const types: string[] = [];
  const values: string[] = [];
  keysList.forEach((keys, item) => {
    const add = (type: string, value: string) => {
      items.push(item);
      types.push(type);
      values.push(value);
    };
    for (const key of keys.codehostKeys) add('CODEHOST', key);
    for (const key of keys.websiteKeys) add('WEBSITE', key);
    if (keys.slug !== null) add('SLUG', keys.slug);
  });
  const found: ({ id: string; slug: string; lockFields: string[] | null } | undefined)[] = keysList.map(
    () => undefined,
  );
  if (items.length === 0) return found;
  const result = await sql<{ item: number; id: string; slug: string; lock_fields: string[] | null }>`
    select distinct on (k.item) k.item, m.id, m.slug, m.lock_fields
    from unnest(${items}::int[], ${types}::text[], ${values}::text[]) with ordinality as k(item, type, value, ord)
    cross join lateral (
      select p.id, p.slug, p.created_at, p.lock_fields
      from links l
      cross join lateral (select id, slug, created_at, lock_fields from projects where id = l.project_id limit 1) p
      where k.type <> 'SLUG' and l.type = k.type and l.url_key = k.value
      union all
      select p.id, p.slug, p.created_at, p.lock_fields from projects p where k.type = 'SLUG' and p.slug = k.value
      union all
      -- a slug that was merged away stands for the project it went into (EXTENSIONS E)
      select p.id, p.slug, p.created_at, p.lock_fields from project_aliases a
      cross join lateral (select id, slug, created_at, lock_fields from projects where id = a.project_id limit 1) p
      where k.type = 'SLUG' and a.slug = k.value
      order by created_at, id
      limit 1
    ) m
    order by k.item, k.ord
  `.execute(db);
  for (const row of result.rows)
    found[row.item] = { id: row.id, slug: row.slug, lockFields: row.lock_fields };
  return found;
}

export type ProjectFields = Omit<NewProjectRow, 'id' | 'slug' | 'created_at' | 'updated_at'>;

/**
 * Rows written by one batch are stamped with the transaction's time plus their position in
 * microseconds, so that projects created by one batch still have a definite age order
 * ("the oldest project wins") and a project created then updated in one batch reads in order.
 */
export interface ProjectWrite {
  id: string;
  fields: ProjectFields;
  position: number;
  /** Inserts only: a restored project's original creation time and lock (default: now, none). */
  createdAt?: string | undefined;
  lock?: { fields: string[]; reason: string | null; at: string } | null | undefined;
}

/** Lists travel to unnest() joined by U+0001 (no value holds it). */
const SEP = '\u0001';

/** Inserts new projects in one statement. */
export async function insertProjects(db: Db, rows: (ProjectWrite & { slug: string })[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (f: ProjectFields) => T) => rows.map((r) => pick(r.fields));
  await sql`
    insert into projects (id, slug, name, name_en, description, description_en, content, content_en,
      status, source, created_at, updated_at, lock_fields, lock_reason, lock_at)
    select u.id, u.slug, u.name, u.name_en, u.description, u.description_en, u.content, u.content_en,
      u.status, u.source, coalesce(u.created_at, u.at), u.at,
      string_to_array(u.lock_fields, chr(1)), u.lock_reason, u.lock_at
    from (
      select *, now() + u.position * interval '1 microsecond' as at
      from unnest(
        ${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.slug)}::text[],
        ${column((f) => f.name)}::text[], ${column((f) => f.name_en)}::text[],
        ${column((f) => f.description)}::text[], ${column((f) => f.description_en)}::text[],
        ${column((f) => f.content)}::text[], ${column((f) => f.content_en)}::text[],
        ${column((f) => f.status ?? 'ACTIVE')}::text[], ${column((f) => f.source)}::text[],
        ${rows.map((r) => r.position)}::int[],
        ${rows.map((r) => r.createdAt ?? null)}::timestamptz[],
        ${rows.map((r) => r.lock?.fields.join(SEP) ?? null)}::text[],
        ${rows.map((r) => r.lock?.reason ?? null)}::text[], ${rows.map((r) => r.lock?.at ?? null)}::timestamptz[]
      ) as u(id, slug, name, name_en, description, description_en, content, content_en, status, source, position,
        created_at, lock_fields, lock_reason, lock_at)
    ) u
  `.execute(db);
}

/** Overwrites every field but id, slug and created_at of existing projects, in one statement. */
export async function updateProjects(db: Db, rows: ProjectWrite[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (f: ProjectFields) => T) => rows.map((r) => pick(r.fields));
  await sql`
    update projects p set
      name = u.name, name_en = u.name_en, description = u.description,
      description_en = u.description_en, content = u.content, content_en = u.content_en,
      status = u.status, source = u.source,
      updated_at = now() + u.position * interval '1 microsecond'
    from unnest(
      ${rows.map((r) => r.id)}::text[],
      ${column((f) => f.name)}::text[], ${column((f) => f.name_en)}::text[],
      ${column((f) => f.description)}::text[], ${column((f) => f.description_en)}::text[],
      ${column((f) => f.content)}::text[], ${column((f) => f.content_en)}::text[],
      ${column((f) => f.status ?? 'ACTIVE')}::text[], ${column((f) => f.source)}::text[],
      ${rows.map((r) => r.position)}::int[]
    ) as u(id, name, name_en, description, description_en, content, content_en, status, source, position)
    where p.id = u.id
  `.execute(db);
}

export interface NewLink {
  /** The id to give the link if it is inserted (a revert, a restore); otherwise a new one is made. */
  id?: string | undefined;
  type: LinkType;
  url: string;
  /** core's urlKey(url). */
  urlKey: string;
  title: string | null;
}

export interface LinksAndTags {
  projectId: string;
  /** Inserted by this transaction: it has no links or tags to read first. */
  isNew: boolean;
  links: NewLink[];
  tagIds: string[];
}

interface StoredLink {
  id: string;
  project_id: string;
  url: string;
  url_key: string;
  type: LinkType;
  title: string | null;
  position: number;
}

interface StoredTagLink {
  project_id: string;
  tag_id: string;
  position: number;
}

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
 * is written: a stored link whose url key is submitted again keeps its row (and id) and is
 * updated in place when its spelling, type, title or position changed; the rest are deleted or
 * inserted. An
 * update that repeats a project's links and tags therefore writes none of them.
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
  const storedLinks = new Map(stored.links.map((l) => [`${l.project_id} ${l.url_key}`, l]));
  const storedTags = new Map(stored.tags.map((t) => [`${t.project_id} ${t.tag_id}`, t]));

  const linkInserts: StoredLink[] = [];
  const linkUpdates: StoredLink[] = [];
  const tagInserts: StoredTagLink[] = [];
  const tagUpdates: StoredTagLink[] = [];
  for (const { projectId, links, tagIds } of projects) {
    for (const [position, { urlKey, ...link }] of links.entries()) {
      const key = `${projectId} ${urlKey}`;
      const old = storedLinks.get(key);
      storedLinks.delete(key);
      const row = { ...link, url_key: urlKey, project_id: projectId, position };
      if (!old) linkInserts.push({ ...row, id: newId({ urlKey, ...link }) });
      else if (
        old.url !== link.url ||
        old.type !== link.type ||
        old.title !== link.title ||
        old.position !== position
      )
        linkUpdates.push({ ...row, id: old.id });
    }
    for (const [position, tagId] of tagIds.entries()) {
      const key = `${projectId} ${tagId}`;
      const old = storedTags.get(key);
      storedTags.delete(key);
      if (!old) tagInserts.push({ project_id: projectId, tag_id: tagId, position });
      else if (old.position !== position) tagUpdates.push({ project_id: projectId, tag_id: tagId, position });
    }
  }
  // What is left of the stored rows was not submitted again.
  const linkDeletes = [...storedLinks.values()].map((l) => l.id);
  const tagDeletes = [...storedTags.values()];
  if (
    linkInserts.length +
      linkUpdates.length +
      linkDeletes.length +
      tagInserts.length +
      tagUpdates.length +
      tagDeletes.length ===
    0
  )
    return;

  // Deletes run before the inserts (which read them), so a url can move between positions.
  await sql`
    with
      deleted_links as (delete from links where id = any(${linkDeletes}::text[]) returning 1),
      deleted_tags as (
        delete from project_tags pt
        using unnest(${tagDeletes.map((t) => t.project_id)}::text[], ${tagDeletes.map((t) => t.tag_id)}::text[])
          as d(project_id, tag_id)
        where pt.project_id = d.project_id and pt.tag_id = d.tag_id
        returning 1
      ),
      updated_links as (
        update links l set url = u.url, type = u.type, title = u.title, position = u.position
        from unnest(
          ${linkUpdates.map((l) => l.id)}::text[], ${linkUpdates.map((l) => l.url)}::text[],
          ${linkUpdates.map((l) => l.type)}::text[], ${linkUpdates.map((l) => l.title)}::text[],
          ${linkUpdates.map((l) => l.position)}::int[]
        ) as u(id, url, type, title, position)
        where l.id = u.id
        returning 1
      ),
      updated_tags as (
        update project_tags pt set position = u.position
        from unnest(
          ${tagUpdates.map((t) => t.project_id)}::text[], ${tagUpdates.map((t) => t.tag_id)}::text[],
          ${tagUpdates.map((t) => t.position)}::int[]
        ) as u(project_id, tag_id, position)
        where pt.project_id = u.project_id and pt.tag_id = u.tag_id
        returning 1
      ),
      inserted_tags as (
        insert into project_tags (project_id, tag_id, position)
        select u.project_id, u.tag_id, u.position
        from unnest(
          ${tagInserts.map((t) => t.project_id)}::text[], ${tagInserts.map((t) => t.tag_id)}::text[],
          ${tagInserts.map((t) => t.position)}::int[]
        ) as u(project_id, tag_id, position)
        where (select count(*) from deleted_tags) >= 0
        returning 1
      )
    insert into links (id, project_id, type, url, url_key, title, position)
    select u.id, u.project_id, u.type, u.url, u.url_key, u.title, u.position
    from unnest(
      ${linkInserts.map((l) => l.id)}::text[], ${linkInserts.map((l) => l.project_id)}::text[],
      ${linkInserts.map((l) => l.type)}::text[], ${linkInserts.map((l) => l.url)}::text[],
      ${linkInserts.map((l) => l.url_key)}::text[], ${linkInserts.map((l) => l.title)}::text[],
      ${linkInserts.map((l) => l.position)}::int[]
    ) as u(id, project_id, type, url, url_key, title, position)
    where (select count(*) from deleted_links) >= 0
      and (select count(*) from updated_links) >= 0
      and (select count(*) from updated_tags) >= 0
      and (select count(*) from inserted_tags) >= 0
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
