import { type Kysely, sql } from 'kysely';
import type { Database, TaskStatus } from './tables.ts';

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
  project: ProjectRef | null;
}

// Each lookup is a LATERAL … LIMIT subquery: an index lookup per item whatever the table
// statistics say (see findProjectDetailBySlug).

/**
 * For each url (in order): the task with that sourceUrl, and the oldest project having a link
 * of any type with exactly that url. One query for the whole request.
 */
export async function findUrlMatches(db: Db, urls: string[]): Promise<UrlMatches[]> {
  const result = await sql<{
    task_id: string | null;
    task_status: TaskStatus | null;
    task_created_at: Date | null;
    task_project_id: string | null;
    project_id: string | null;
    project_name: string | null;
    project_slug: string | null;
  }>`
    select t.id as task_id, t.status as task_status, t.created_at as task_created_at,
      t.project_id as task_project_id, p.id as project_id, p.name as project_name, p.slug as project_slug
    from unnest(${urls}::text[]) with ordinality as u(url, i)
    left join lateral (
      select id, status, created_at, project_id from discovery_tasks where source_url = u.url limit 1
    ) t on true
    left join lateral (
      select p.id, p.name, p.slug from links l join projects p on p.id = l.project_id
      where l.url = u.url order by p.created_at, p.id limit 1
    ) p on true
    order by u.i
  `.execute(db);
  return result.rows.map((r, i) => ({
    task:
      r.task_id === null
        ? null
        : {
            id: r.task_id,
            status: r.task_status as TaskStatus,
            sourceUrl: urls[i] as string,
            createdAt: r.task_created_at as Date,
            projectId: r.task_project_id,
          },
    project:
      r.project_id === null ? null : { id: r.project_id, name: r.project_name!, slug: r.project_slug! },
  }));
}

export interface ProjectKeys {
  codehostUrl?: string | undefined;
  modelhubUrl?: string | undefined;
  websiteUrl?: string | undefined;
  slug?: string | undefined;
}

export interface ProjectKeyMatches {
  codehostUrl: ProjectRef | null;
  modelhubUrl: ProjectRef | null;
  websiteUrl: ProjectRef | null;
  slug: ProjectRef | null;
}

/**
 * For each item (in order): the oldest project matching each of its four keys, or null.
 * Which match wins is core's rule; this is one query for the whole request.
 */
export async function findProjectKeyMatches(db: Db, items: ProjectKeys[]): Promise<ProjectKeyMatches[]> {
  const column = (k: keyof ProjectKeys) => items.map((item) => item[k] ?? null);
  const result = await sql<Record<`${'ch' | 'mh' | 'ws' | 'sl'}_${'id' | 'name' | 'slug'}`, string | null>>`
    select ch.id as ch_id, ch.name as ch_name, ch.slug as ch_slug,
      mh.id as mh_id, mh.name as mh_name, mh.slug as mh_slug,
      ws.id as ws_id, ws.name as ws_name, ws.slug as ws_slug,
      sl.id as sl_id, sl.name as sl_name, sl.slug as sl_slug
    from unnest(
      ${column('codehostUrl')}::text[], ${column('modelhubUrl')}::text[],
      ${column('websiteUrl')}::text[], ${column('slug')}::text[]
    ) with ordinality as u(codehost, modelhub, website, slug, i)
    left join lateral (
      select p.id, p.name, p.slug from links l join projects p on p.id = l.project_id
      where l.type = 'CODEHOST' and l.url = u.codehost order by p.created_at, p.id limit 1
    ) ch on true
    left join lateral (
      select p.id, p.name, p.slug from links l join projects p on p.id = l.project_id
      where l.type = 'MODELHUB' and l.url = u.modelhub order by p.created_at, p.id limit 1
    ) mh on true
    left join lateral (
      select p.id, p.name, p.slug from links l join projects p on p.id = l.project_id
      where l.type = 'WEBSITE' and l.url = u.website order by p.created_at, p.id limit 1
    ) ws on true
    left join lateral (select id, name, slug from projects where slug = u.slug limit 1) sl on true
    order by u.i
  `.execute(db);
  const ref = (id: string | null, name: string | null, slug: string | null) =>
    id === null ? null : { id, name: name!, slug: slug! };
  return result.rows.map((r) => ({
    codehostUrl: ref(r.ch_id, r.ch_name, r.ch_slug),
    modelhubUrl: ref(r.mh_id, r.mh_name, r.mh_slug),
    websiteUrl: ref(r.ws_id, r.ws_name, r.ws_slug),
    slug: ref(r.sl_id, r.sl_name, r.sl_slug),
  }));
}
