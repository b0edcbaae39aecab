import { findTagPage, searchQuery } from '@directory/db';
import { decodeCursor, encodeCursor, queryHash } from '../cursor.ts';
import { publicProcedure } from '../trpc.ts';
import { FindTagsInput, FindTagsOutput, findTagsMeta } from './find-tags.types.ts';

export const findTags = publicProcedure
  .meta(findTagsMeta)
  .input(FindTagsInput)
  .output(FindTagsOutput)
  .query(async ({ ctx, input }) => {
    const binding = queryHash({ tags: true, q: input.q ?? null, sort: input.sort });
    const after = input.cursor === undefined ? undefined : decodeCursor(ctx.apiKey, binding, input.cursor);
    const search = input.q === undefined ? undefined : searchQuery(input.q);
    if (input.q !== undefined && !search)
      return { success: true as const, tags: [], hasMore: false, nextCursor: null };
    const rows = await findTagPage(ctx.db, {
      patterns: search?.patterns,
      sort: input.sort,
      limit: input.limit,
      after,
    });
    const hasMore = rows.length > input.limit;
    const tags = rows.slice(0, input.limit);
    const last = tags[tags.length - 1];
    return {
      success: true as const,
      tags: tags.map(({ sortKey: _key, ...tag }) => tag),
      hasMore,
      nextCursor:
        hasMore && last ? encodeCursor(ctx.apiKey, binding, { key: last.sortKey, id: last.id }) : null,
    };
  });
