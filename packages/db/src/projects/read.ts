import { CompiledQuery, type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { type Database, type LinkType, PROJECT_COLUMNS, type ProjectRow } from '../tables.ts';

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

/**
 * A project's lock (docs/curation.md#history-revert-locks-and-restore): the fields an upsert or complete
 * keeps; null fields when unlocked.
 */
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
  const one = ids.length === 1;
  const { sql: text, parameters, idsAt } = detailsByIdsStatement(db, forUpdate, one);
  const values = [...parameters];
  values[idsAt] = one ? ids[0] : [...ids];
  const result = await db.executeQuery<ProjectDetailRow>(CompiledQuery.raw(text, values));
  return result.rows;
}

// Compiled once (as the slug's statement is): building it took Kysely longer than PostgreSQL
// takes to run it. Every database here has the same dialect (PostgresDialect, PGlite too), so
// one text serves all. The ids are found among the parameters by identity.
//
// One id has a statement of its own (`p.id = $n`), the cold GET by slug's: PostgreSQL never
// takes the generic plan of `= any($n)` for a one-element array (it costs the generic plan
// for ten elements, more than a custom plan for one), so it planned that statement anew on
// every execution — twice the database's work of the read itself (bench/LAST-RUN.md).
const compiledByIds = new Map<string, { sql: string; parameters: readonly unknown[]; idsAt: number }>();

function detailsByIdsStatement(db: Db, forUpdate: boolean, one: boolean) {
  const key = `${forUpdate}:${one}`;
  let compiled = compiledByIds.get(key);
  if (!compiled) {
    const marker: string[] = [];
    const query = projectDetailQuery(db).where(
      'p.id',
      '=',
      one ? sql<string>`${marker}` : sql<string>`any(${marker}::text[])`,
    );
    const { sql: text, parameters } = (forUpdate ? query.forUpdate('p') : query).compile();
    compiled = { sql: text, parameters, idsAt: parameters.indexOf(marker) };
    compiledByIds.set(key, compiled);
  }
  return compiled;
}

/** Projects with their links and tags in the API's shape; the caller adds the where. */
function projectDetailQuery(db: Db) {
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

/** The slug's project id without locking it (to decide which locks to take first). */
export async function findProjectIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`select id from projects where slug = ${slug}`.execute(db);
  return rows[0]?.id;
}

/** The ids of the projects with these slugs, by slug (a slug no project has is absent). */
export async function findProjectIdsBySlugs(db: Db, slugs: readonly string[]): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const { rows } = await sql<{ id: string; slug: string }>`
    select id, slug from projects where slug = any(${[...slugs]}::text[])
  `.execute(db);
  return new Map(rows.map((r) => [r.slug, r.id]));
}
