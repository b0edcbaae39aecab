import { type Kysely, sql } from 'kysely';
import type { Database, LinkType, ProjectStatus } from '../tables.ts';

type Db = Kysely<Database>;

/** A project of an export as it is written back: every id, slug and time as the export has them. */
export interface RestoredProjectRow {
  id: string;
  slug: string;
  name: string;
  nameEn: string | null;
  description: string;
  descriptionEn: string | null;
  content: string | null;
  contentEn: string | null;
  status: ProjectStatus;
  source: string | null;
  createdAt: string;
  updatedAt: string;
  stars: number | null;
  downloads: number | null;
  lock: { fields: string[]; reason: string | null; at: string } | null;
  tags: { id: string; name: string; nameEn: string | null; slug: string }[];
  links: { id: string; type: LinkType; url: string; urlKey: string; title: string | null }[];
  /** The slugs of projects merged into it (their 301s). */
  aliases: string[];
}

/** What a batch names that the directory already holds (from earlier batches of the restore). */
export interface RestoreClashes {
  /** Slugs held by a project or an alias. */
  slugs: Set<string>;
  /** The stored tags with one of the batch's tag ids, names or slugs. */
  tags: { id: string; name: string | null; nameEn: string | null; slug: string }[];
}

export async function findRestoreClashes(
  db: Db,
  rows: readonly RestoredProjectRow[],
): Promise<RestoreClashes> {
  const slugs = rows.flatMap((r) => [r.slug, ...r.aliases]);
  const tags = rows.flatMap((r) => r.tags);
  const { rows: held } = await sql<{ slug: string }>`
    select slug from projects where slug = any(${slugs}::text[])
    union all select slug from project_aliases where slug = any(${slugs}::text[])
  `.execute(db);
  const { rows: stored } = await sql<RestoreClashes['tags'][number]>`
    select id, name, name_en as "nameEn", slug from tags
    where id = any(${tags.map((t) => t.id)}::text[]) or name = any(${tags.map((t) => t.name)}::text[])
      or slug = any(${tags.map((t) => t.slug)}::text[])
  `.execute(db);
  return { slugs: new Set(held.map((h) => h.slug)), tags: stored };
}

/**
 * Writes a batch of an export as it is: projects (created and updated times, lock, signals),
 * the tags not stored yet (under their ids and slugs), tag associations and links (under their
 * ids) in the export's order, and aliases. The projects' insert trigger writes one
 * project.created change per project (migration 2026_11_23_000300_changes), which is how the
 * read model of every process, feed readers and webhooks learn of them.
 */
export async function insertRestoredProjects(db: Db, rows: readonly RestoredProjectRow[]): Promise<void> {
  if (rows.length === 0) return;
  const tags = new Map(rows.flatMap((r) => r.tags.map((t) => [t.id, t] as const)));
  await sql`
    insert into tags (id, name, name_en, slug)
    select id, name, name_en, slug
    from json_to_recordset(${JSON.stringify([...tags.values()].map((t) => ({ id: t.id, name: t.name, name_en: t.nameEn, slug: t.slug })))}::json)
      as u(id text, name text, name_en text, slug text)
    order by name
    on conflict (id) do nothing
  `.execute(db);
  const projects = rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    name_en: r.nameEn,
    description: r.description,
    description_en: r.descriptionEn,
    content: r.content,
    content_en: r.contentEn,
    status: r.status,
    source: r.source,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    stars: r.stars,
    downloads: r.downloads,
    lock_fields: r.lock?.fields ?? null,
    lock_reason: r.lock?.reason ?? null,
    lock_at: r.lock?.at ?? null,
  }));
  await sql`
    insert into projects (id, slug, name, name_en, description, description_en, content, content_en, status, source,
      created_at, updated_at, stars, downloads, lock_fields, lock_reason, lock_at)
    select id, slug, name, name_en, description, description_en, content, content_en, status, source,
      created_at, updated_at, stars, downloads, lock_fields, lock_reason, lock_at
    from json_to_recordset(${JSON.stringify(projects)}::json) as u(id text, slug text, name text, name_en text,
      description text, description_en text, content text, content_en text, status text, source text,
      created_at timestamptz, updated_at timestamptz, stars int8, downloads int8, lock_fields text[],
      lock_reason text, lock_at timestamptz)
    order by id
  `.execute(db);
  const projectTags = rows.flatMap((r) => r.tags.map((t, position) => ({ p: r.id, t: t.id, position })));
  await sql`
    insert into project_tags (project_id, tag_id, position)
    select p, t, position from json_to_recordset(${JSON.stringify(projectTags)}::json) as u(p text, t text, position int)
  `.execute(db);
  const links = rows.flatMap((r) => r.links.map((l, position) => ({ ...l, p: r.id, k: l.urlKey, position })));
  await sql`
    insert into links (id, project_id, type, url, url_key, title, position)
    select id, p, type, url, k, title, position
    from json_to_recordset(${JSON.stringify(links)}::json)
      as u(id text, p text, type text, url text, k text, title text, position int)
  `.execute(db);
  const aliases = rows.flatMap((r) => r.aliases.map((slug) => ({ slug, p: r.id })));
  if (aliases.length === 0) return;
  // The merged project's id is not in an export: the alias names itself (a restore of the
  // merged project's history is not possible here: its history is not in the export either).
  await sql`
    insert into project_aliases (slug, project_id, merged_id)
    select slug, p, 'restored:' || slug from json_to_recordset(${JSON.stringify(aliases)}::json) as u(slug text, p text)
  `.execute(db);
}
