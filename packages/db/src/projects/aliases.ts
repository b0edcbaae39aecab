import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

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

/** Who holds a slug: a project, an alias (naming its target), or nobody. */
export async function findSlugHolder(
  db: Db,
  slug: string,
): Promise<{ kind: 'project'; id: string } | { kind: 'alias'; target: string } | undefined> {
  const { rows } = await sql<{ kind: 'project' | 'alias'; id: string }>`
    select 'project' as kind, id from projects where slug = ${slug}
    union all
    select 'alias' as kind, p.slug as id from project_aliases a join projects p on p.id = a.project_id
    where a.slug = ${slug}
    limit 1
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return row.kind === 'project' ? { kind: 'project', id: row.id } : { kind: 'alias', target: row.id };
}

/**
 * The slug of the project a merged project went into (the final target,
 * docs/curation.md#same-project-other-spelling), by the merged project's id; undefined when it was not
 * merged, or its target was deleted since.
 */
export async function findMergeTarget(db: Db, mergedId: string): Promise<string | undefined> {
  const { rows } = await sql<{ slug: string }>`
    select p.slug from project_aliases a join projects p on p.id = a.project_id
    where a.merged_id = ${mergedId} limit 1
  `.execute(db);
  return rows[0]?.slug;
}
