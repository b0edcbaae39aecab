import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

export interface DuplicateGroupRow {
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
      order by k.key limit ${limit}
    ) g
    order by g.key
  `.execute(db);
  return rows;
}
