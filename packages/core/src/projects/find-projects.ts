import {
  findProjectFacets,
  findProjectPage,
  type ProjectListItem as ItemRow,
  projectSearchColumns,
  type SearchQuery,
  searchQuery,
  TOTAL_CAP,
  tokens,
} from '@directory/db';
import { decodeCursor, encodeCursor, queryHash } from '../cursor.ts';
import { AppError } from '../errors.ts';
import { publicProcedure } from '../trpc.ts';
import { FindProjectsInput, FindProjectsOutput, findProjectsMeta } from './find-projects.types.ts';

type MatchField =
  | 'name'
  | 'nameEn'
  | 'slug'
  | 'pinyin'
  | 'initials'
  | 'tags'
  | 'description'
  | 'descriptionEn';
const KEY_FIELDS = ['name', 'nameEn', 'slug', 'pinyin', 'initials'] as const;

const haystack = (s: string | null) => ` ${tokens(s).join(' ')} `;
const found = (text: string, search: SearchQuery) => search.patterns.some((p) => text.includes(p));

/**
 * Which field matched best, for an item of a page, from the score the database ranked it by
 * (search.repository.ts): the key it equals or starts (100, 80), the name field holding a
 * word (60), its tags (40), or its description (20).
 */
function matchField(item: ItemRow, search: SearchQuery): MatchField {
  const score = item.score ?? 0;
  if (score >= 80) {
    const cols = projectSearchColumns({ ...item, tags: [] });
    const at = cols.search_keys.findIndex((k) =>
      score === 100 ? k === search.whole : k !== '' && k.startsWith(search.whole),
    );
    return KEY_FIELDS[at] ?? 'name';
  }
  if (score >= 60) {
    if (found(haystack(item.name), search)) return 'name';
    if (found(haystack(item.nameEn), search)) return 'nameEn';
    if (found(haystack(item.slug), search)) return 'slug';
    return 'pinyin';
  }
  if (score >= 40) return 'tags';
  return found(haystack(item.description), search) ? 'description' : 'descriptionEn';
}

const sortedSet = <T extends string>(values: T[] | undefined) => [...new Set(values ?? [])].sort();

export const findProjects = publicProcedure
  .meta(findProjectsMeta)
  .input(FindProjectsInput)
  .output(FindProjectsOutput)
  .query(async ({ ctx, input }) => {
    if (input.sort === 'relevance' && input.q === undefined)
      throw new AppError('VALIDATION', ['sort: relevance needs q']);
    const sort = input.sort ?? (input.q !== undefined ? 'relevance' : 'updated');
    const order = input.order ?? (sort === 'name' ? 'asc' : 'desc');
    const filters = {
      status: input.status === 'ALL' ? undefined : input.status,
      tagSlugs: sortedSet(input.tag),
      tagMode: input.tagMode,
      linkTypes: sortedSet(input.linkType),
      source: input.source,
      updatedAfter: input.updatedAfter,
    };
    // A cursor belongs to the query: the filters, q, sort and order (not the limit or facets).
    const binding = queryHash({ q: input.q ?? null, ...filters, sort, order });
    const after = input.cursor === undefined ? undefined : decodeCursor(ctx.apiKey, binding, input.cursor);
    const facetNames = [...new Set(input.facets ?? [])];

    const search = input.q === undefined ? undefined : searchQuery(input.q);
    if (input.q !== undefined && !search) {
      // a query of punctuation only: it has no word to match
      const empty = Object.fromEntries(facetNames.map((f) => [f, []]));
      return {
        success: true as const,
        projects: [],
        total: 0,
        totalExact: true,
        hasMore: false,
        nextCursor: null,
        ...(facetNames.length > 0 && { facets: empty }),
      };
    }
    const query = { ...filters, search };
    const pageQuery = {
      ...query,
      sort,
      order,
      limit: input.limit,
      after,
      asOf: after?.asOf,
      includeContent: input.include === 'content',
    };
    // With q, the page and the facets come from one read of the matches (one statement);
    // without q, the page is an index-ordered scan and the facets a query of their own.
    const [page, facets] = search
      ? await findProjectPage(ctx.db, pageQuery, facetNames).then((p) => [p, p.facets] as const)
      : await Promise.all([
          findProjectPage(ctx.db, pageQuery),
          facetNames.length > 0 ? findProjectFacets(ctx.db, query, facetNames) : undefined,
        ]);
    const hasMore = page.items.length > input.limit;
    const items = page.items.slice(0, input.limit);
    const last = items[items.length - 1];
    return {
      success: true as const,
      projects: items.map((item) => {
        const { sortKey: _key, score, ...project } = item;
        return search
          ? { ...project, match: { field: matchField(item, search), score: score ?? 0 } }
          : project;
      }),
      total: Math.min(page.total, TOTAL_CAP),
      totalExact: page.total <= TOTAL_CAP,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor(ctx.apiKey, binding, {
              key: last.sortKey,
              id: last.id,
              asOf: after?.asOf ?? page.asOf,
            })
          : null,
      ...(facets && { facets }),
    };
  });
