import { decodeCursor, encodeCursor, pageCursor } from '../domain/cursor.ts';
import { publicProcedure, readModelOf } from '../trpc.ts';
import { trustedOutput } from '../trusted-output.ts';
import { FindTagsInput, FindTagsOutput, findTagsMeta } from './find-tags.types.ts';

/** GET /api/tags from the read model: its tags and their maintained project counts. */
export const findTags = publicProcedure
  .meta(findTagsMeta)
  .input(FindTagsInput)
  .output(trustedOutput(FindTagsOutput))
  .query(async ({ ctx, input }) => {
    const scope = { secret: ctx.apiKey, query: { tags: true, q: input.q ?? null, sort: input.sort } };
    const after = input.cursor === undefined ? undefined : decodeCursor(pageCursor, input.cursor, scope);
    const model = await readModelOf(ctx, input.minPosition);
    return model.read(
      (index) => ({
        ids: [],
        page: index.findTags({
          ...(input.q !== undefined && { q: input.q }),
          sort: input.sort,
          limit: input.limit,
          ...(after && { after: { key: after.key, id: after.id } }),
        }).hits,
      }),
      (hits) => {
        const page = hits.slice(0, input.limit);
        const hasMore = hits.length > input.limit;
        const last = page[page.length - 1];
        return {
          success: true as const,
          tags: page.flatMap((hit) => {
            const tag = model.index.tag(hit.id);
            return tag
              ? [
                  {
                    id: tag.id,
                    name: tag.name,
                    nameEn: tag.nameEn,
                    slug: tag.slug,
                    aliases: tag.aliases ?? [],
                    projectCount: hit.projectCount,
                  },
                ]
              : [];
          }),
          hasMore,
          nextCursor:
            hasMore && last ? encodeCursor(pageCursor, { key: last.key, id: last.id }, scope) : null,
        };
      },
    );
  });
