import { backfillSearchColumns, backfillTagSearchText } from '../packages/db/src/backfill/search-columns.ts';
import type { Kysely } from '../packages/db/src/index.ts';
import { sql } from '../packages/db/src/index.ts';
import { EN_COMMON, prng, ZH_COMMON } from './data.ts';
import type { Scenario, ScenarioOptions } from './scenario.ts';

/*
 * Browse and search (docs/search.md#browsing-and-search-get-apiprojects-get-apitags), on the seeded
 * projects. Rows seeded with SQL rather than through the upsert get their search columns, while the schema
 * has them, from the same function the search migration uses (with the GIN indexes dropped meanwhile, as a
 * bulk load would), then compacted and analysed. Without them (the read model: every process builds its
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

/** A search scenario whose query varies per request: `make(r)` is the query string of a request. */
const varied = (
  key: string,
  label: string,
  connections: number,
  make: (random: () => number) => string,
): Scenario => ({
  key,
  label,
  target: 'server',
  connections,
  requests: () => {
    const random = prng(key.length * 7919);
    return [
      {
        method: 'GET',
        setupRequest: (req) => {
          req.path = `/api/projects?${make(random)}`;
          return req;
        },
      },
    ];
  },
});

const pick = <T>(xs: readonly T[], random: () => number) => xs[Math.floor(random() * xs.length)]!;
// one typo (two letters swapped) in each common English word of 5+ letters (shorter words allow none)
const TYPOS = EN_COMMON.filter((w) => w.length >= 5).map(
  (w) => `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}`,
);
const PREFIXES = [...new Set(EN_COMMON.map((w) => w.slice(0, 2)))];

/**
 * The search scenarios, on the corpus of bench/data.ts (twenty common words per language,
 * four per project, so that one matches about a fifth of the directory, more with the tags
 * that hold it). The word varies per request: a Chinese or an English common word, two words
 * (one of each language), a two-letter prefix of an English one, an English one with two
 * letters swapped, a Chinese one with the three facets; the list page without q; the tags.
 * The HTTP bench runs them with RESPONSE_CACHE_MB as given (--response-cache-mb): 0 measures
 * what every answer costs once anything was written.
 */
export function searchScenarios(options: Pick<ScenarioOptions, 'connections'>): Scenario[] {
  const c = options.connections;
  return [
    get('search-list', 'GET /api/projects (first page, no q)', '/api/projects', c),
    varied(
      'search-zh',
      'GET /api/projects?q=<a common Chinese word>',
      c,
      (r) => `q=${q(pick(ZH_COMMON, r))}`,
    ),
    varied('search-en', 'GET /api/projects?q=<a common English word>', c, (r) => `q=${pick(EN_COMMON, r)}`),
    varied(
      'search-two',
      'GET /api/projects?q=<an English word> <a Chinese word>',
      c,
      (r) => `q=${q(`${pick(EN_COMMON, r)} ${pick(ZH_COMMON, r)}`)}`,
    ),
    varied('search-prefix', 'GET /api/projects?q=<two letters>', c, (r) => `q=${pick(PREFIXES, r)}`),
    varied('search-typo', 'GET /api/projects?q=<a word with a typo>', c, (r) => `q=${pick(TYPOS, r)}`),
    varied(
      'search-facets',
      'GET /api/projects?q=<a Chinese word>&facets=tags,status,linkTypes',
      c,
      (r) => `q=${q(pick(ZH_COMMON, r))}&facets=tags,status,linkTypes`,
    ),
    get('search-tags', 'GET /api/tags', '/api/tags', c),
  ];
}
