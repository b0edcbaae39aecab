import { type Kysely, sql } from 'kysely';
import { KEPT } from '../read-model/read.ts';
import type { Database } from '../tables.ts';
import type { StoredLink, StoredTagLink } from './diff.ts';

type Db = Kysely<Database>;

export interface IdentityKeys {
  /** URL keys (core's urlKey) of the input's CODEHOST links, in submitted order. */
  codehostKeys: string[];
  websiteKeys: string[];
  slug: string | null;
}

/** A stored project an upsert's input identifies, with what the upsert needs to write it. */
export interface IdentifiedProject {
  id: string;
  slug: string;
  /**
   * Which of the input's keys found it: a CODEHOST or WEBSITE url key, or the slug (an alias
   * slug too). SLUG means none of the input's url keys is any project's link key of its type.
   */
  matchedBy: 'CODEHOST' | 'WEBSITE' | 'SLUG';
  lockFields: string[] | null;
  lockReason: string | null;
  lockAt: Date | null;
  createdAt: Date;
  /** Its signals and whether a person keeps it (read-model/read.ts StandingFacts). */
  stars: number | null;
  downloads: number | null;
  kept: boolean;
  /**
   * The row version read (its xmin): the write of the project only applies to this version
   * (writeProjectBatch), so that what was read here (links, tags, lock) is still what is stored.
   */
  version: string;
  links: StoredLink[];
  tags: StoredTagLink[];
}

/**
 * For each set of keys, the stored project it points at, or undefined: the first of its
 * CODEHOST url keys (in submitted order) stored as a CODEHOST link's key, else the first of its
 * WEBSITE keys among WEBSITE links, else its slug (or the project an alias slug names); among
 * projects sharing one key the oldest.
 * The ranking is core's rule (identity.ts); this query runs it for a whole batch in one round
 * trip. Each key is an index lookup (LATERAL … LIMIT, see findProjectDetailBySlug). With
 * each project come its lock, creation time, row version and stored links and tag associations
 * (the upsert reads nothing else before it writes).
 */
export async function findProjectsByIdentity(
  db: Db,
  keysList: IdentityKeys[],
): Promise<(IdentifiedProject | undefined)[]> {
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
  const found: (IdentifiedProject | undefined)[] = keysList.map(() => undefined);
  if (items.length === 0) return found;
  const result = await sql<{
    item: number;
    id: string;
    slug: string;
    matched_by: 'CODEHOST' | 'WEBSITE' | 'SLUG';
    lock_fields: string[] | null;
    lock_reason: string | null;
    lock_at: Date | null;
    created_at: Date;
    stars: number | null;
    downloads: number | null;
    kept: boolean;
    version: string;
    links: StoredLink[] | null;
    tags: StoredTagLink[] | null;
  }>`
    with found as (
      select distinct on (k.item) k.item, k.type as matched_by, m.id
      from unnest(${items}::int[], ${types}::text[], ${values}::text[]) with ordinality as k(item, type, value, ord)
      cross join lateral (
        select p.id, p.created_at
        from links l
        cross join lateral (select id, created_at from projects where id = l.project_id limit 1) p
        where k.type <> 'SLUG' and l.type = k.type and l.url_key = k.value
        union all
        select p.id, p.created_at from projects p where k.type = 'SLUG' and p.slug = k.value
        union all
        -- a slug that was merged away stands for the project it went into (docs/curation.md#same-project-other-spelling)
        select p.id, p.created_at from project_aliases a
        cross join lateral (select id, created_at from projects where id = a.project_id limit 1) p
        where k.type = 'SLUG' and a.slug = k.value
        order by created_at, id
        limit 1
      ) m
      order by k.item, k.ord
    )
    select f.item, f.matched_by, p.id, p.slug, p.lock_fields, p.lock_reason, p.lock_at, p.created_at, p.stars, p.downloads,
      ${KEPT} as kept, p.row_version::text as version,
      (select json_agg(json_build_object('id', l.id, 'project_id', l.project_id, 'url', l.url, 'url_key', l.url_key,
          'type', l.type, 'title', l.title, 'position', l.position))
        from links l where l.project_id = p.id) as links,
      (select json_agg(json_build_object('project_id', t.project_id, 'tag_id', t.tag_id, 'position', t.position))
        from project_tags t where t.project_id = p.id) as tags
    from found f cross join lateral (select q.*, q.xmin as row_version from projects q where q.id = f.id limit 1) p
  `.execute(db);
  for (const row of result.rows)
    found[row.item] = {
      id: row.id,
      slug: row.slug,
      matchedBy: row.matched_by,
      lockFields: row.lock_fields,
      lockReason: row.lock_reason,
      lockAt: row.lock_at,
      createdAt: row.created_at,
      stars: row.stars,
      downloads: row.downloads,
      kept: row.kept,
      version: row.version,
      links: row.links ?? [],
      tags: row.tags ?? [],
    };
  return found;
}
