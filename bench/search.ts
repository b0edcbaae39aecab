import { backfillSearchColumns, backfillTagSearchText } from '../packages/db/src/backfill/search-columns.ts';
import type { Kysely } from '../packages/db/src/index.ts';
import { sql } from '../packages/db/src/index.ts';
import type { Scenario, ScenarioOptions } from './scenario.ts';

/*
 * Browse and search (EXTENSIONS A), on the seeded projects. Rows seeded with SQL rather than
 * through the upsert get their search columns, while the schema has them, from the same
 * function the search migration uses (with the GIN indexes dropped meanwhile, as a bulk load
 * would), then compacted and analysed. Without them (the read model: every process builds its
 * index from the projects' own columns) there is nothing to fill. Returns the seconds taken,
 * or undefined when there was nothing to do.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema (the columns are named in SQL)
export async function prepareSearch(db: Kysely<any>): Promise<number | undefined> {
  const started = performance.now();
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from information_schema.columns
    where table_schema = current_schema() and table_name = 'projects' and column_name = 'search_grams'
  `.execute(db);
  if (rows[0]?.n !== 1) return undefined;
  await sql`drop index projects_search_grams_idx, projects_tag_ids_idx`.execute(db);
  await backfillSearchColumns(db);
  await backfillTagSearchText(db);
  await sql`
    create index projects_search_grams_idx on projects using gin (search_grams);
    create index projects_tag_ids_idx on projects using gin (tag_ids);
  `.execute(db);
  // The backfill wrote a second version of every row; rows written through the API are
  // written once, with their search columns. VACUUM FULL gives the heap that layout (half its
  // pages otherwise hold only dead versions, and a broad search reads twice the pages).
  // (A plain VACUUM after it sets the visibility map, which VACUUM FULL leaves empty.)
  await sql`vacuum full projects`.execute(db);
  await sql`vacuum (analyze) projects, tags`.execute(db);
  return (performance.now() - started) / 1000;
}

const get = (key: string, label: string, path: string, connections: number): Scenario => ({
  key,
  label,
  target: 'server',
  connections,
  requests: () => [{ method: 'GET', path }],
});

const q = (s: string) => encodeURIComponent(s);

/**
 * The search scenarios. Words from bench/data.ts: 模型 is one of ten Chinese nouns (a tenth
 * of the names, and their descriptions); "engine" one of the English nouns; "open model" two
 * words that both must match ("open" is also the prefix of "open-source" in every English
 * content); "kyzs" the pinyin initials of 开源助手 ("kai yuan zhu shou"), a name of a hundredth
 * of the projects.
 */
export function searchScenarios(options: Pick<ScenarioOptions, 'connections'>): Scenario[] {
  const c = options.connections;
  return [
    get('search-list', 'GET /api/projects (first page, no q)', '/api/projects', c),
    get('search-zh', 'GET /api/projects?q=模型', `/api/projects?q=${q('模型')}`, c),
    get('search-en', 'GET /api/projects?q=engine', '/api/projects?q=engine', c),
    get('search-two', 'GET /api/projects?q=open model', `/api/projects?q=${q('open model')}`, c),
    get('search-initials', 'GET /api/projects?q=kyzs', '/api/projects?q=kyzs', c),
    get(
      'search-facets',
      'GET /api/projects?q=模型&facets=tags,status,linkTypes',
      `/api/projects?q=${q('模型')}&facets=tags,status,linkTypes`,
      c,
    ),
    get('search-tags', 'GET /api/tags', '/api/tags', c),
  ];
}
