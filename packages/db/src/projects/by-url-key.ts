import { type Kysely, sql } from 'kysely';
import type { Database, TaskStatus } from '../tables.ts';

type Db = Kysely<Database>;

export interface ProjectRef {
  id: string;
  name: string;
  slug: string;
}

export interface UrlMatches {
  task: {
    id: string;
    status: TaskStatus;
    sourceUrl: string;
    createdAt: Date;
    projectId: string | null;
  } | null;
  /** The oldest project with a link of that key, and that link's url as stored. */
  project: (ProjectRef & { matchedUrl: string }) | null;
}

// Each lookup is a LATERAL … LIMIT subquery: an index lookup per item whatever the table
// statistics say (see findProjectDetailBySlug).

/**
 * For each url key (in order): the task with that key, and the oldest project having a link
 * of any type with that key. One query for the whole request.
 */
export async function findUrlMatches(db: Db, keys: string[]): Promise<UrlMatches[]> {
  const result = await sql<{
    task_id: string | null;
    task_status: TaskStatus | null;
    task_source_url: string | null;
    task_created_at: Date | null;
    task_project_id: string | null;
    project_id: string | null;
    project_name: string | null;
    project_slug: string | null;
    project_url: string | null;
  }>`
    select t.id as task_id, t.status as task_status, t.source_url as task_source_url,
      t.created_at as task_created_at, t.project_id as task_project_id,
      p.id as project_id, p.name as project_name, p.slug as project_slug, p.url as project_url
    from unnest(${keys}::text[]) with ordinality as u(key, i)
    left join lateral (
      select id, status, source_url, created_at, project_id from discovery_tasks where url_key = u.key limit 1
    ) t on true
    left join lateral (
      select p.id, p.name, p.slug, l.url from links l join projects p on p.id = l.project_id
      where l.url_key = u.key order by p.created_at, p.id limit 1
    ) p on true
    order by u.i
  `.execute(db);
  return result.rows.map((r) => ({
    task:
      r.task_id === null
        ? null
        : {
            id: r.task_id,
            status: r.task_status as TaskStatus,
            sourceUrl: r.task_source_url as string,
            createdAt: r.task_created_at as Date,
            projectId: r.task_project_id,
          },
    project:
      r.project_id === null
        ? null
        : { id: r.project_id, name: r.project_name!, slug: r.project_slug!, matchedUrl: r.project_url! },
  }));
}

/** The url keys (core's urlKey) of an endpoint 10 item, and its slug. */
export interface ProjectKeys {
  codehostUrl?: string | undefined;
  modelhubUrl?: string | undefined;
  websiteUrl?: string | undefined;
  slug?: string | undefined;
}

export type MatchedProject = ProjectRef & { matchedUrl: string | null };

export interface ProjectKeyMatches {
  codehostUrl: MatchedProject | null;
  modelhubUrl: MatchedProject | null;
  websiteUrl: MatchedProject | null;
  slug: MatchedProject | null;
}

/**
 * For each item (in order): the oldest project matching each of its four keys (a link of that
 * type with that url key; the slug), or null, with the stored url that matched. Which match
 * wins is core's rule; this is one query for the whole request.
 */
export async function findProjectKeyMatches(db: Db, items: ProjectKeys[]): Promise<ProjectKeyMatches[]> {
  const column = (k: keyof ProjectKeys) => items.map((item) => item[k] ?? null);
  type Prefix = 'ch' | 'mh' | 'ws' | 'sl';
  const result = await sql<
    Record<`${Prefix}_${'id' | 'name' | 'slug'}` | `${'ch' | 'mh' | 'ws'}_url`, string | null>
  >`
    select ch.id as ch_id, ch.name as ch_name, ch.slug as ch_slug, ch.url as ch_url,
      mh.id as mh_id, mh.name as mh_name, mh.slug as mh_slug, mh.url as mh_url,
      ws.id as ws_id, ws.name as ws_name, ws.slug as ws_slug, ws.url as ws_url,
      sl.id as sl_id, sl.name as sl_name, sl.slug as sl_slug
    from unnest(
      ${column('codehostUrl')}::text[], ${column('modelhubUrl')}::text[],
      ${column('websiteUrl')}::text[], ${column('slug')}::text[]
    ) with ordinality as u(codehost, modelhub, website, slug, i)
    left join lateral (
      select p.id, p.name, p.slug, l.url from links l join projects p on p.id = l.project_id
      where l.type = 'CODEHOST' and l.url_key = u.codehost order by p.created_at, p.id limit 1
    ) ch on true
    left join lateral (
      select p.id, p.name, p.slug, l.url from links l join projects p on p.id = l.project_id
      where l.type = 'MODELHUB' and l.url_key = u.modelhub order by p.created_at, p.id limit 1
    ) mh on true
    left join lateral (
      select p.id, p.name, p.slug, l.url from links l join projects p on p.id = l.project_id
      where l.type = 'WEBSITE' and l.url_key = u.website order by p.created_at, p.id limit 1
    ) ws on true
    left join lateral (select id, name, slug from projects where slug = u.slug limit 1) sl on true
    order by u.i
  `.execute(db);
  const ref = (id: string | null, name: string | null, slug: string | null, matchedUrl: string | null) =>
    id === null ? null : { id, name: name!, slug: slug!, matchedUrl };
  return result.rows.map((r) => ({
    codehostUrl: ref(r.ch_id, r.ch_name, r.ch_slug, r.ch_url),
    modelhubUrl: ref(r.mh_id, r.mh_name, r.mh_slug, r.mh_url),
    websiteUrl: ref(r.ws_id, r.ws_name, r.ws_slug, r.ws_url),
    slug: ref(r.sl_id, r.sl_name, r.sl_slug, null),
  }));
}

/** The slug of the oldest project with a link of that url key (GET /api/projects/by-url). */
export async function findProjectSlugByUrlKey(db: Db, key: string): Promise<string | undefined> {
  const { rows } = await sql<{ slug: string }>`
    select p.slug from links l join projects p on p.id = l.project_id
    where l.url_key = ${key} order by p.created_at, p.id limit 1
  `.execute(db);
  return rows[0]?.slug;
}

/**
 * The other projects that own a link with one of these url keys: one row per key owned (the
 * key and the owner's slug), in no particular order.
 */
export async function findLinkKeyOwners(
  db: Db,
  urlKeys: readonly string[],
  exceptId: string,
): Promise<{ slug: string; urlKey: string }[]> {
  if (urlKeys.length === 0) return [];
  const { rows } = await sql<{ slug: string; url_key: string }>`
    select distinct on (l.url_key) p.slug, l.url_key from links l join projects p on p.id = l.project_id
    where l.url_key = any(${[...urlKeys]}::text[]) and l.project_id <> ${exceptId}
    order by l.url_key, p.slug
  `.execute(db);
  return rows.map((row) => ({ slug: row.slug, urlKey: row.url_key }));
}
