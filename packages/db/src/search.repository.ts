import { type Kysely, type RawBuilder, sql } from 'kysely';
import { KEY_COUNT, type SearchQuery } from './search-terms.ts';
import type { Database, LinkType, ProjectStatus } from './tables.ts';

type Db = Kysely<Database>;

export type ProjectSort = 'relevance' | 'updated' | 'created' | 'name';
export type SortOrder = 'asc' | 'desc';

export interface ProjectFilters {
  search?: SearchQuery | undefined;
  status?: ProjectStatus | undefined;
  tagSlugs: string[];
  tagMode: 'all' | 'any';
  linkTypes: LinkType[];
  source?: string | undefined;
  /** ISO 8601, compared by the database. */
  updatedAfter?: string | undefined;
}

export interface ProjectPageQuery extends ProjectFilters {
  sort: ProjectSort;
  order: SortOrder;
  limit: number;
  /** The sort key and id of the last item of the previous page. */
  after?: { key: string | number; id: string } | undefined;
  /**
   * The database time of the walk's first page (ISO, microseconds): later pages leave out
   * projects written after it, so that a project written during the walk, whose sort key
   * may have moved past the cursor, is not listed twice.
   */
  asOf?: string | undefined;
  includeContent: boolean;
}

/** An item of a page, already in the API's shape (built by the database as JSON). */
export interface ProjectListItem {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  description: string;
  descriptionEn: string | null;
  content?: string | null;
  contentEn?: string | null;
  status: ProjectStatus;
  source: string | null;
  createdAt: string;
  updatedAt: string;
  tags: { id: string; name: string; nameEn: string | null; slug: string }[];
  links: { id: string; type: LinkType; url: string; title: string | null }[];
  /** The sort key, for the cursor (timestamps with microseconds, as text). */
  sortKey: string | number;
  /** The match class score (relevance), when searching. */
  score?: number;
}

/** Totals stop counting here (EXTENSIONS A): `total` is then a lower bound. */
export const TOTAL_CAP = 10_000;

/*
 * Matching (see search-terms.ts): the gram array narrows by the GIN index, then every term
 * must be found (strpos) in the name or description haystack, or in one of the project's
 * tags (their search_text, read at query time: TAGS_WITH). `cls` is the weakest
 * place a term was found (3 name, 2 tag, 1 description) — "every word must match", and
 * the item ranks by its worst word. The score: 100 when the whole query (without spaces)
 * equals a key (name, nameEn, slug, pinyin, initials), 80 when it starts one, else 20 × cls.
 */
const CLS = (patterns: string[]) => {
  // one CASE per word (a query has at most MAX_QUERY_TERMS): cheaper per row than unnest()
  const one = (t: string) => sql`case when strpos(p.search_name, ${t}::text) > 0 then 3
    when p.tag_ids && ${TAGS_WITH(t)} then 2 when strpos(p.search_desc, ${t}::text) > 0 then 1 else 0 end`;
  return patterns.length === 1 ? one(patterns[0]!) : sql`least(${sql.join(patterns.map(one), sql`, `)})`;
};

/**
 * The ids of the tags whose name or English name holds a word: a project matches the word
 * by a tag when it has one of them. Read from the tags at query time (an InitPlan, once per
 * statement), so a tag's English name reaches every project it tags as soon as it is stored.
 */
const TAGS_WITH = (t: string) =>
  sql`(select coalesce(array_agg(id), '{}') from tags where strpos(search_text, ${t}::text) > 0)`;

// search_keys has exactly KEY_COUNT elements (search-terms.ts): testing each by position is
// about a fifth cheaper per matching row than an exists() over unnest() (measured at 100k rows).
const SCORE = (whole: string) => {
  const prefix = Array.from(
    { length: KEY_COUNT },
    (_, i) => sql`starts_with(p.search_keys[${sql.lit(i + 1)}], ${whole}::text)`,
  );
  return sql`(case
  when ${whole}::text = any(p.search_keys) then 100
  when ${sql.join(prefix, sql` or `)} then 80
  else 20 * m.cls end)`;
};

export type Facet = 'status' | 'tags' | 'linkTypes';

/** The FROM clause: projects, with the match class when searching. */
function from(f: ProjectFilters): RawBuilder<unknown> {
  return f.search
    ? sql`projects p cross join lateral (select ${CLS(f.search.patterns)} as cls) m`
    : sql`projects p`;
}

/** Each filter's condition, when it is given. */
function filterParts(f: ProjectFilters) {
  // each word: the index finds the rows whose name or description grams hold it, or that
  // have a tag holding it; the match class then decides exactly
  const search = f.search
    ? sql`${sql.join(
        f.search.patterns.map(
          (t, i) =>
            sql`(p.search_grams @> ${f.search!.termGrams[i]!}::text[] or p.tag_ids && ${TAGS_WITH(t)})`,
        ),
        sql` and `,
      )} and m.cls > 0`
    : undefined;
  const status = f.status ? sql`p.status = ${f.status}::text` : undefined;
  let tags: RawBuilder<unknown> | undefined;
  if (f.tagSlugs.length > 0) {
    const ids = sql`(select array_agg(id) from tags where slug = any(${f.tagSlugs}::text[]))`;
    tags =
      f.tagMode === 'any'
        ? sql`p.tag_ids && ${ids}`
        : sql`p.tag_ids @> ${ids} and (select count(*) from tags where slug = any(${f.tagSlugs}::text[])) = ${f.tagSlugs.length}::int`;
  }
  const linkTypes = f.linkTypes.length > 0 ? sql`p.link_types @> ${f.linkTypes}::text[]` : undefined;
  const others: RawBuilder<unknown>[] = [];
  if (f.source !== undefined) others.push(sql`p.source = ${f.source}::text`);
  if (f.updatedAfter !== undefined) others.push(sql`p.updated_at > ${f.updatedAfter}::timestamptz`);
  return { search, status, tags, linkTypes, others };
}

/** The WHERE conditions of the filters. */
function conditions(f: ProjectFilters): RawBuilder<unknown>[] {
  const parts = filterParts(f);
  return [parts.search, parts.status, parts.tags, parts.linkTypes, ...parts.others].filter(
    (c): c is RawBuilder<unknown> => c !== undefined,
  );
}

const whereClause = (parts: RawBuilder<unknown>[]) =>
  parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``;

const US_ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const MS_ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const isoOf = (column: string, format: string) => sql.raw(`to_char(${column} at time zone 'UTC', ${format})`);

/** The sort key expression (what the cursor carries) and its column for ORDER BY. */
function sortKey(q: ProjectPageQuery): {
  key: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
  compare: RawBuilder<unknown> | undefined;
} {
  const dir = q.order === 'asc' ? sql.raw('asc') : sql.raw('desc');
  const op = sql.raw(q.order === 'asc' ? '>' : '<');
  const after = q.after;
  const keyset = (column: RawBuilder<unknown>, cast: string) =>
    after ? sql`(${column}, p.id) ${op} (${after.key}::${sql.raw(cast)}, ${after.id}::text)` : undefined;
  switch (q.sort) {
    case 'relevance': {
      // the score column of the materialised matches (findProjectPage)
      if (!q.search) throw new Error('relevance needs a search');
      return {
        key: sql`p.score`,
        order: sql`p.score ${dir}, p.id ${dir}`,
        compare: keyset(sql`p.score`, 'int'),
      };
    }
    case 'name':
      return {
        key: sql`p.name_sort`,
        order: sql`p.name_sort ${dir}, p.id ${dir}`,
        compare: keyset(sql`p.name_sort`, 'text'),
      };
    case 'created':
      return {
        key: isoOf('p.created_at', US_ISO),
        order: sql`p.created_at ${dir}, p.id ${dir}`,
        compare: keyset(sql`p.created_at`, 'timestamptz'),
      };
    default:
      return {
        key: isoOf('p.updated_at', US_ISO),
        order: sql`p.updated_at ${dir}, p.id ${dir}`,
        compare: keyset(sql`p.updated_at`, 'timestamptz'),
      };
  }
}

/**
 * One page (limit + 1 rows, to tell whether there is more), the capped total and, with q,
 * the facets asked for, in one statement: without q the page is an index-ordered keyset scan
 * (one (key, id) btree per sort); its tags and links are read for the page rows only, after
 * the LIMIT; the total counts at most TOTAL_CAP + 1 matching rows, or is read from the
 * maintained counts when no filter but status is given.
 */
export async function findProjectPage(
  db: Db,
  q: ProjectPageQuery,
  facets: Facet[] = [],
): Promise<{ items: ProjectListItem[]; total: number; asOf: string; facets?: ProjectFacets }> {
  const key = sortKey(q);
  const where = conditions(q);
  const dir = sql.raw(q.order);
  const content = q.includeContent ? sql`, 'content', p.content, 'contentEn', p.content_en` : sql``;
  // With q, every match is found anyway (the GIN index gives candidates, strpos decides):
  // they are read once, materialised with their score, and the page, the total and the
  // facets asked for come from that set. With facets, the set read (c) holds the matches of
  // q and of the filters that are not facets, with whether each facet filter holds; the
  // page's matches (m) are those where all hold. Without q, the page is an index-ordered
  // keyset scan and the total is counted as below.
  const withFacets = q.search !== undefined && facets.length > 0;
  const parts = filterParts(q);
  const matches = !q.search
    ? sql``
    : withFacets
      ? sql`c as materialized (select p.id, p.updated_at, p.created_at, p.name_sort, ${SCORE(q.search.whole)} as score,
            p.status, p.tag_ids, p.link_types, ${holds(parts.status)} as s_ok, ${holds(parts.tags)} as t_ok,
            ${holds(parts.linkTypes)} as l_ok
          from ${from(q)} ${whereClause(nonFacetConditions(parts))}),
        m as (select id, updated_at, created_at, name_sort, score from c where s_ok and t_ok and l_ok),`
      : sql`m as materialized (select p.id, p.updated_at, p.created_at, p.name_sort, ${SCORE(q.search.whole)} as score
          from ${from(q)} ${whereClause(where)}),`;
  const pageFrom = q.search
    ? sql`(select id, updated_at, created_at, name_sort, score from m) p`
    : sql`projects p`;
  const pageWhereText = whereClause([
    ...(q.search ? [] : where),
    ...(key.compare ? [key.compare] : []),
    ...(q.asOf ? [sql`p.updated_at <= ${q.asOf}::timestamptz`] : []),
  ]);
  // Without q and without filters other than status, the total is a sum of the maintained
  // per-status counters (migration 2026_11_24_000400_counts), exact and the same cost at any size.
  const onlyStatus = !q.search && where.length === (q.status ? 1 : 0);
  const total = q.search
    ? sql`(select count(*)::int from m)`
    : onlyStatus
      ? sql`(select coalesce(sum(n), 0)::int from project_facet_counts
          where facet = 'status' ${q.status ? sql`and value = ${q.status}::text` : sql``})`
      : sql`(select count(*)::int from (select 1 from projects p ${whereClause(where)} limit ${TOTAL_CAP + 1}::int) c)`;
  const pageScore = q.search ? sql`, p.score` : sql`, null::int as score`;
  const facetColumns = withFacets ? sql`, ${sql.join(facetSelects(facets), sql`, `)}` : sql``;
  const result = await sql<{ total: number; items: ProjectListItem[]; as_of: string } & ProjectFacets>`
    with ${matches} page as (
      select p.id, ${key.key} as sort_key ${pageScore}
      from ${pageFrom} ${pageWhereText} order by ${key.order} limit ${q.limit + 1}::int
    )
    select ${isoOf('clock_timestamp()', US_ISO)} as as_of, ${total} as total,
      (select coalesce(json_agg(json_build_object(
        'id', p.id, 'name', p.name, 'nameEn', p.name_en, 'slug', p.slug,
        'description', p.description, 'descriptionEn', p.description_en ${content},
        'status', p.status, 'source', p.source,
        'createdAt', ${isoOf('p.created_at', MS_ISO)}, 'updatedAt', ${isoOf('p.updated_at', MS_ISO)},
        'tags', (select coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'nameEn', t.name_en, 'slug', t.slug)
                   order by pt.position), '[]')
                 from project_tags pt cross join lateral (select * from tags where id = pt.tag_id limit 1) t
                 where pt.project_id = p.id),
        'links', (select coalesce(json_agg(json_build_object('id', l.id, 'type', l.type, 'url', l.url, 'title', l.title)
                   order by l.position), '[]') from links l where l.project_id = p.id),
        'sortKey', page.sort_key, 'score', page.score
      ) order by page.sort_key ${dir}, page.id ${dir}), '[]')
      from page cross join lateral (select * from projects where id = page.id limit 1) p
      ) as items ${facetColumns}
  `.execute(db);
  const row = result.rows[0]!;
  const { items, total: count, as_of, ...found } = row;
  return { items, total: count, asOf: as_of, ...(withFacets && { facets: topTags(found) }) };
}

export interface ProjectFacets {
  tags?: { slug: string; name: string; nameEn: string | null; count: number }[];
  status?: { value: string; count: number }[];
  linkTypes?: { value: string; count: number }[];
}

/**
 * The facets asked for, in one statement: each counts the matches of every filter but its
 * own. The rows matching q and the other filters are read once (materialised, with whether
 * each facet filter holds), and each facet counts over them.
 */
export async function findProjectFacets(db: Db, f: ProjectFilters, facets: Facet[]): Promise<ProjectFacets> {
  if (facets.length === 0) return {};
  const parts = filterParts(f);
  // Without q and without any filter but its own, a facet counts the whole directory: it is
  // read from the maintained counts. The others count the matching rows, read once.
  const own = { status: parts.status, tags: parts.tags, linkTypes: parts.linkTypes };
  const counted = (facet: Facet) =>
    !f.search &&
    parts.others.length === 0 &&
    Object.entries(own).every(([name, condition]) => name === facet || condition === undefined);
  const scanned = facets.filter((facet) => !counted(facet));
  const selects = [...facets.filter(counted).map(countedFacet), ...facetSelects(scanned)];
  const result = await sql<ProjectFacets>`
    ${
      scanned.length > 0
        ? sql`with c as materialized (
            select p.status, p.tag_ids, p.link_types,
              ${holds(parts.status)} as s_ok, ${holds(parts.tags)} as t_ok, ${holds(parts.linkTypes)} as l_ok
            from ${from(f)} ${whereClause(nonFacetConditions(parts))}
          )`
        : sql``
    }
    select ${sql.join(selects, sql`, `)}`.execute(db);
  return topTags(result.rows[0]!);
}

/** A facet of the whole directory, from the maintained counts (same shape and order as facetSelects). */
function countedFacet(facet: Facet): RawBuilder<unknown> {
  const sums = (name: string) =>
    sql`select value, sum(n)::int as count from project_facet_counts where facet = ${name}::text
      group by value having sum(n) > 0`;
  if (facet === 'tags')
    return sql`(select coalesce(json_agg(json_build_object('slug', t.slug, 'name', t.name, 'nameEn', t.name_en,
        'count', x.count) order by x.count desc, t.slug), '[]')
      from (${sums('tag')} order by count desc, value limit 200) x
      cross join lateral (select * from tags where id = x.value limit 1) t) as tags`;
  return sql`(select coalesce(json_agg(json_build_object('value', value, 'count', count) order by count desc, value), '[]')
    from (${sums(facet === 'status' ? 'status' : 'linkType')}) s) as ${sql.ref(facet)}`;
}

const holds = (c: RawBuilder<unknown> | undefined) => c ?? sql`true`;

/** The conditions of q and of the filters that are not facets. */
const nonFacetConditions = (parts: ReturnType<typeof filterParts>) =>
  [parts.search, ...parts.others].filter((c): c is RawBuilder<unknown> => c !== undefined);

/** The top 50 tags (EXTENSIONS A): the database ranks 200, ties by slug decide the last places. */
function topTags(row: ProjectFacets): ProjectFacets {
  return row.tags ? { ...row, tags: row.tags.slice(0, 50) } : row;
}

/**
 * One column per facet asked for, counted over the CTE `c` (the rows matching q and the
 * filters that are not facets, with s_ok/t_ok/l_ok telling whether each facet filter holds):
 * each facet counts the rows where every filter but its own holds. Arrays are unnested in the
 * select list (a ProjectSet), about twice as fast as a lateral unnest() per row.
 */
function facetSelects(facets: Facet[]): RawBuilder<unknown>[] {
  const selects: RawBuilder<unknown>[] = [];
  if (facets.includes('status'))
    selects.push(sql`(select coalesce(json_agg(json_build_object('value', value, 'count', count) order by count desc, value), '[]')
      from (select status as value, count(*)::int as count from c where t_ok and l_ok group by status) s) as status`);
  if (facets.includes('linkTypes'))
    selects.push(sql`(select coalesce(json_agg(json_build_object('value', value, 'count', count) order by count desc, value), '[]')
      from (select value, count(*)::int as count from (select unnest(c.link_types) as value from c where s_ok and t_ok) lt
        group by value) s) as "linkTypes"`);
  if (facets.includes('tags'))
    selects.push(sql`(select coalesce(json_agg(json_build_object('slug', t.slug, 'name', t.name, 'nameEn', t.name_en,
        'count', x.count) order by x.count desc, t.slug), '[]')
      from (select id, count(*)::int as count from (select unnest(c.tag_ids) as id from c where s_ok and l_ok) tg
        group by id order by count(*) desc, id limit 200) x
      cross join lateral (select * from tags where id = x.id limit 1) t) as tags`);
  return selects;
}

export interface TagPageQuery {
  /** strpos patterns over the tag's search text (search-terms.ts searchQuery). */
  patterns?: string[] | undefined;
  sort: 'count' | 'name';
  limit: number;
  after?: { key: string | number; id: string } | undefined;
}

export interface TagListItem {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  projectCount: number;
  sortKey: string | number;
}

/** A page of tags with their project counts (maintained: project_facet_counts, migration 2026_11_24_000400_counts). */
export async function findTagPage(db: Db, q: TagPageQuery): Promise<TagListItem[]> {
  const where: RawBuilder<unknown>[] = [];
  if (q.patterns?.length)
    where.push(
      sql`not exists (select 1 from unnest(${q.patterns}::text[]) as x(t) where strpos(tg.search_name, x.t) = 0)`,
    );
  const byCount = q.sort === 'count';
  if (q.after)
    where.push(
      byCount
        ? sql`(tg.project_count < ${q.after.key}::int or (tg.project_count = ${q.after.key}::int and tg.id > ${q.after.id}::text))`
        : sql`(tg.name_sort, tg.id) > (${q.after.key}::text, ${q.after.id}::text)`,
    );
  const result = await sql<TagListItem>`
    select tg.id, tg.name, tg.name_en as "nameEn", tg.slug, tg.project_count as "projectCount",
      ${byCount ? sql`tg.project_count` : sql`tg.name_sort`} as "sortKey"
    from (
      select t.id, t.name, t.name_en, t.slug, t.name_sort, t.search_name, coalesce(c.n, 0)::int as project_count
      from tags t left join (select value as tag_id, sum(n) as n from project_facet_counts where facet = 'tag'
        group by value) c on c.tag_id = t.id
    ) tg
    ${whereClause(where)}
    order by ${byCount ? sql`tg.project_count desc, tg.id asc` : sql`tg.name_sort asc, tg.id asc`}
    limit ${q.limit + 1}::int
  `.execute(db);
  return result.rows;
}
