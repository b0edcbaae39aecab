import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

/** Rows keyed per statement: large enough to be quick, small enough to hold in memory. */
const BATCH = 2000;

/**
 * Fills the url_key of links and tasks that have none (rows written before migration
 * 2026_11_25_000700_url_keys). A one-off kept here rather than in the migration because the
 * key is core's TypeScript function, which a migration may not import: the caller passes it.
 * Idempotent and resumable: it only touches rows whose key is null, in batches.
 *
 * Keys are unique per project (links) and across tasks. Two existing rows may share a key
 * (`…/QwenLM/Qwen` and `…/qwenlm/qwen` in one project, or two tasks): the first one (a link's
 * position, a task's age) gets the key and the others get it marked as taken (` taken-by <id>`:
 * a key never contains a space), so they never match and reads find the first one. Existing
 * projects are never merged automatically; GET /api/projects/duplicates lists them.
 */
export async function backfillUrlKeys(db: Kysely<Database>, keyOf: (url: string) => string): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await sql<{ id: string; scope: string; url: string }>`
      select id, project_id as scope, url from links where url_key is null
      order by project_id, position, id limit ${BATCH}
    `.execute(db);
    if (rows.rows.length === 0) break;
    filled += await fill(db, 'links', rows.rows, keyOf);
  }
  for (;;) {
    const rows = await sql<{ id: string; scope: string; url: string }>`
      select id, '' as scope, source_url as url from discovery_tasks where url_key is null
      order by created_at, id limit ${BATCH}
    `.execute(db);
    if (rows.rows.length === 0) break;
    filled += await fill(db, 'discovery_tasks', rows.rows, keyOf);
  }
  return filled;
}

async function fill(
  db: Kysely<Database>,
  table: 'links' | 'discovery_tasks',
  rows: { id: string; scope: string; url: string }[],
  keyOf: (url: string) => string,
): Promise<number> {
  const seen = new Set<string>();
  const ids: string[] = [];
  const keys: string[] = [];
  for (const row of rows) {
    const key = keyOf(row.url);
    const scoped = `${row.scope} ${key}`;
    ids.push(row.id);
    keys.push(seen.has(scoped) ? `${key} taken-by ${row.id}` : key);
    seen.add(scoped);
  }
  // A key an earlier batch (or an earlier row of this one) already gave out is marked taken.
  const scope = table === 'links' ? sql`o.project_id = t.project_id and ` : sql``;
  const result = await sql`
    update ${sql.table(table)} t
    set url_key = case
      when exists (select 1 from ${sql.table(table)} o where ${scope}o.url_key = u.key)
        then u.key || ' taken-by ' || t.id
      else u.key end
    from unnest(${ids}::text[], ${keys}::text[]) as u(id, key)
    where t.id = u.id and t.url_key is null
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
