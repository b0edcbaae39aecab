import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

/** Every pair of the ids, the smaller first (as duplicate_dismissals keeps them). */
function pairsOf(ids: readonly string[]): { a: string[]; b: string[] } {
  const sorted = [...new Set(ids)].sort();
  const a: string[] = [];
  const b: string[] = [];
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++) {
      a.push(sorted[i]!);
      b.push(sorted[j]!);
    }
  return { a, b };
}

/** Records every pair of these projects as distinct; returns how many pairs were new. */
export async function insertDismissals(
  db: Db,
  ids: readonly string[],
  actor: string | null,
): Promise<number> {
  const { a, b } = pairsOf(ids);
  const { rows } = await sql<{ n: number }>`
    with inserted as (
      insert into duplicate_dismissals (project_a, project_b, actor)
      select * from unnest(${a}::text[], ${b}::text[], array_fill(${actor}::text, array[${a.length}::int]))
      on conflict do nothing
      returning 1
    )
    select count(*)::int as n from inserted
  `.execute(db);
  return rows[0]?.n ?? 0;
}

/** Removes the dismissals of every pair of these projects; returns how many there were. */
export async function deleteDismissals(db: Db, ids: readonly string[]): Promise<number> {
  const { a, b } = pairsOf(ids);
  const { rows } = await sql<{ n: number }>`
    with deleted as (
      delete from duplicate_dismissals d
      using unnest(${a}::text[], ${b}::text[]) as u(a, b)
      where d.project_a = u.a and d.project_b = u.b
      returning 1
    )
    select count(*)::int as n from deleted
  `.execute(db);
  return rows[0]?.n ?? 0;
}

export interface DismissalRow {
  at: Date;
  /** The exact time (microseconds) as text, for the next page's cursor. */
  at_key: string;
  project_a: string;
  project_b: string;
  actor: string | null;
  projects: { id: string; slug: string; name: string; nameEn: string | null }[];
}

/**
 * Dismissed pairs whose projects both still exist, newest first, after the position (at, a, b)
 * of the previous page's last.
 */
export async function listDismissals(
  db: Db,
  options: { after?: { at: string; a: string; b: string } | undefined; limit: number },
): Promise<DismissalRow[]> {
  const after = options.after;
  const { rows } = await sql<DismissalRow>`
    select d.at, d.at::text as at_key, d.project_a, d.project_b, d.actor,
      json_build_array(
        json_build_object('id', pa.id, 'slug', pa.slug, 'name', pa.name, 'nameEn', pa.name_en),
        json_build_object('id', pb.id, 'slug', pb.slug, 'name', pb.name, 'nameEn', pb.name_en)
      ) as projects
    from duplicate_dismissals d
    join projects pa on pa.id = d.project_a
    join projects pb on pb.id = d.project_b
    ${after ? sql`where (d.at, d.project_a, d.project_b) < (${after.at}::timestamptz, ${after.a}, ${after.b})` : sql``}
    order by d.at desc, d.project_a desc, d.project_b desc
    limit ${options.limit}
  `.execute(db);
  return rows;
}
