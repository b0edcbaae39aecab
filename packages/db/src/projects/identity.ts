import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

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
