import type { ProjectQuery } from '@directory/search';
import { decodeCursor, encodeCursor, pageCursor } from '../domain/cursor.ts';
import { AppError } from '../errors.ts';
import { publicProcedure, readModelOf } from '../trpc.ts';
import { trustedOutput } from '../trusted-output.ts';
import { FindProjectsInput, FindProjectsOutput, findProjectsMeta } from './find-projects.types.ts';
import { listItem } from './list-item.ts';

const sortedSet = <T extends string>(values: T[] | undefined) => [...new Set(values ?? [])].sort();

/**
 * GET /api/projects from the read model: the engine (@directory/search) matches, ranks,
 * counts and picks the page's ids; the page's projects come from the model's detail cache.
 */
export const findProjects = publicProcedure
  .meta(findProjectsMeta)
  .input(FindProjectsInput)
  .output(trustedOutput(FindProjectsOutput))
  .query(async ({ ctx, input }) => {
    if (input.sort === 'relevance' && input.q === undefined)
      throw new AppError('VALIDATION', ['sort: relevance needs q']);
    const sort = input.sort ?? (input.q !== undefined ? 'relevance' : 'updated');
    const order = input.order ?? (sort === 'name' ? 'asc' : 'desc');
    let updatedAfter: number | undefined;
    if (input.updatedAfter !== undefined) updatedAfter = Date.parse(input.updatedAfter);
    const filters = {
      status: input.status === 'ALL' ? undefined : input.status,
      tagSlugs: sortedSet(input.tag),
      tagMode: input.tagMode,
      linkTypes: sortedSet(input.linkType),
      source: input.source,
      updatedAfter: input.updatedAfter,
    };
    // A cursor belongs to the query: the filters, q, typos, sort and order (not the limit or facets).
    const typos = input.typos !== false;
    const scope = {
      secret: ctx.apiKey,
      query: {
        q: input.q ?? null,
        ...filters,
        sort,
        order,
        ...(!typos && { typos }),
        ...(input.matchingStrategy && { matchingStrategy: input.matchingStrategy }),
      },
    };
    const after = input.cursor === undefined ? undefined : decodeCursor(pageCursor, input.cursor, scope);
    const model = await readModelOf(ctx, input.minPosition);
    const query: ProjectQuery = {
      ...(input.q !== undefined && { q: input.q }),
      typos,
      ...(input.matchingStrategy && { matchingStrategy: input.matchingStrategy }),
      ...(input.explain && { explain: true }),
      ...(filters.status && { status: filters.status }),
      tagSlugs: filters.tagSlugs,
      tagMode: filters.tagMode,
      linkTypes: filters.linkTypes,
      ...(filters.source !== undefined && { source: filters.source }),
      ...(updatedAfter !== undefined && { updatedAfter }),
      sort,
      order,
      limit: input.limit,
      facets: [...new Set(input.facets ?? [])],
    };
    const withContent = input.include === 'content';
    // the search, the page's details and the answer in the read's turn (read-model/read.ts)
    return model.read(
      (index) => {
        // The walk's first page fixes asOf (what the model has when it is searched): later pages
        // leave out projects written after it, so that one whose sort key moved past the cursor
        // is not listed twice.
        const asOf = after?.asOf !== undefined ? Number(after.asOf) : model.asOf;
        const found = index.findProjects(
          after ? { ...query, after: { key: after.key, id: after.id }, asOf } : query,
        );
        const hits = found.hits.slice(0, input.limit);
        return { ids: hits.map((h) => h.id), page: { found, asOf, hits } };
      },
      ({ found, asOf, hits }, projects) => {
        const hasMore = found.hits.length > input.limit;
        const byId = new Map(projects.map((p) => [p.body.id, p]));
        const last = hits[hits.length - 1];
        return {
          success: true as const,
          projects: hits.flatMap((hit) => {
            const p = byId.get(hit.id);
            return p ? [listItem(p, hit.match && { match: hit.match }, withContent)] : [];
          }),
          total: found.total,
          ...(found.dropped && { dropped: found.dropped }),
          totalExact: true,
          hasMore,
          nextCursor:
            hasMore && last
              ? encodeCursor(pageCursor, { key: last.key, id: last.id, asOf: String(asOf) }, scope)
              : null,
          ...(found.facets && { facets: facetsInOrder(found.facets) }),
        };
      },
    );
  });

/** The facets asked for, in the schema's order. */
function facetsInOrder(f: NonNullable<FindProjectsOutput['facets']>): FindProjectsOutput['facets'] {
  return {
    ...(f.tags && { tags: f.tags }),
    ...(f.status && { status: f.status }),
    ...(f.linkTypes && { linkTypes: f.linkTypes }),
  };
}
