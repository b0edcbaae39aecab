import { decodeCursor, encodeCursor, queryHash } from '../cursor.ts';
import { publicProcedure, readModelOf } from '../trpc.ts';
import { FindTagsInput, FindTagsOutput, findTagsMeta } from './find-tags.types.ts';

/** GET /api/tags from the read model: its tags and their maintained project counts. */
export const findTags = publicProcedure
  .meta(findTagsMeta)
  .input(FindTagsInput)
  .output(FindTagsOutput)
  .query(async ({ ctx, input }) => {
    const binding = queryHash({ tags: true, q: input.q ?? null, sort: input.sort });
    const after = input.cursor === undefined ? undefined : decodeCursor(ctx.apiKey, binding, input.cursor);
    const model = await readModelOf(ctx, input.minPosition);
    const { hits } = model.index.findTags({
      ...(input.q !== undefined && { q: input.q }),
      sort: input.sort,
      limit: input.limit,
      ...(after && { after: { key: after.key, id: after.id } }),
    });
    const page = hits.slice(0, input.limit);
    const hasMore = hits.length > input.limit;
    const last = page[page.length - 1];
    return {
      success: true as const,
      tags: page.flatMap((hit) => {
        const tag = model.index.tag(hit.id);
        return tag ? [{ ...tag, projectCount: hit.projectCount }] : [];
      }),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(ctx.apiKey, binding, { key: last.key, id: last.id }) : null,
    };
  });
