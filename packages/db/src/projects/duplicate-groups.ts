import { type Kysely, sql } from 'kysely';
import type { Database, LinkType } from '../tables.ts';

type Db = Kysely<Database>;

/**
 * A project of a group, with what an operator compares (docs/curation.md#duplicates-to-decide-on); times as
 * PostgreSQL writes them in JSON.
 */
export interface DuplicateProjectRow {
  id: string;
  slug: string;
  name: string;
  nameEn: string | null;
  description: string;
  descriptionEn: string | null;
  links: { id: string; type: LinkType; url: string; title: string | null }[];
  createdAt: string;
  updatedAt: string;
  /** Every revision kept. */
  revisions: number;
  /** Revisions not made via upsert or complete: the work of curators. */
  curatedRevisions: number;
  locked: boolean;
}

export interface DuplicateGroupRow {
  reason: 'link' | 'name';
  key: string;
  projects: DuplicateProjectRow[];
}

// The normalised name of GET /api/projects/duplicates: exactly the expression of the indexes
// projects_name_key_idx and projects_name_en_key_idx (migration 2026_11_25_000710_merges).
const nameKey = (column: string) =>
  sql`(lower(regexp_replace(${sql.ref(column)}, '[[:space:][:punct:]]+', '', 'g')) collate "C")`;

const GROUP_PROJECTS = sql`json_build_object(
    'id', p.id, 'slug', p.slug, 'name', p.name, 'nameEn', p.name_en,
    'description', p.description, 'descriptionEn', p.description_en,
    'links', coalesce((
      select json_agg(json_build_object('id', l.id, 'type', l.type, 'url', l.url, 'title', l.title) order by l.position)
      from links l where l.project_id = p.id
    ), '[]'::json),
    'createdAt', p.created_at, 'updatedAt', p.updated_at,
    'revisions', (select count(*) from project_revisions r where r.project_id = p.id),
    'curatedRevisions', (
      select count(*) from project_revisions r where r.project_id = p.id and r.via not in ('upsert', 'complete')
    ),
    'locked', p.lock_fields is not null
  ) order by p.created_at, p.id`;

/** No dismissal (duplicate_dismissals, smaller id first) covers the pair of projects `a` < `b`. */
const undismissed = (a: string, b: string) =>
  sql`not exists (select 1 from duplicate_dismissals d where d.project_a = ${sql.ref(a)} and d.project_b = ${sql.ref(b)})`;

/**
 * Groups are listed while some pair of their projects is not dismissed (a pair an operator said
 * are distinct projects never makes a group on its own again).
 *
 * Up to `limit` groups of projects that share a link key, in key order after `after`, each with
 * its projects (oldest first). The url_key index gives the keys in order, so a page reads only
 * as far as it needs.
 */
export async function findLinkDuplicates(
  db: Db,
  after: string | undefined,
  limit: number,
): Promise<DuplicateGroupRow[]> {
  const { rows } = await sql<DuplicateGroupRow>`
    select 'link' as reason, g.key, (
      select json_agg(${GROUP_PROJECTS}) from projects p
      where p.id in (select project_id from links where url_key = g.key)
    ) as projects
    from (
      select url_key as key from links
      where url_key > ${after ?? ''}
      group by url_key having count(*) > 1
        and exists (
          select 1 from links a join links b on b.url_key = a.url_key and a.project_id < b.project_id
          where a.url_key = links.url_key and ${undismissed('a.project_id', 'b.project_id')}
        )
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
): Promise<DuplicateGroupRow[]> {
  const { rows } = await sql<DuplicateGroupRow>`
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
        and exists (
          select 1 from projects a join projects b on a.id < b.id
          where (${nameKey('a.name')} = k.key or (a.name_en is not null and ${nameKey('a.name_en')} = k.key))
            and (${nameKey('b.name')} = k.key or (b.name_en is not null and ${nameKey('b.name_en')} = k.key))
            and ${undismissed('a.id', 'b.id')}
        )
      order by k.key limit ${limit}
    ) g
    order by g.key
  `.execute(db);
  return rows;
}
