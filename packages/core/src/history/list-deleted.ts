import { listDeletedProjects } from '@directory/db';
import { decodeCursor, encodeCursor, pageCursor } from '../domain/cursor.ts';
import { keyedProcedure, readDbOf } from '../trpc.ts';
import { ListDeletedInput, ListDeletedOutput, listDeletedMeta } from './list-deleted.types.ts';

const QUERY = { deleted: 1 };

export const listDeleted = keyedProcedure
  .meta(listDeletedMeta)
  .input(ListDeletedInput)
  .output(ListDeletedOutput)
  .query(async ({ ctx, input }) => {
    // The cursor is the last item's exact delete time (microseconds, as text) and id, signed.
    const after =
      input.cursor === undefined
        ? undefined
        : decodeCursor(pageCursor, input.cursor, { secret: ctx.apiKey, query: QUERY });
    const rows = await listDeletedProjects(readDbOf(ctx), {
      after: after && { at: String(after.key), projectId: after.id },
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      success: true as const,
      projects: page.map((r) => ({
        id: r.project_id,
        slug: r.slug,
        name: r.name,
        nameEn: r.name_en,
        deletedAt: r.at.toISOString(),
        revision: r.revision,
        via: r.via === 'merge' ? ('merge' as const) : ('delete' as const),
        actor: r.actor,
        mergedInto: r.merged_into === null ? null : { slug: r.merged_into },
      })),
      nextCursor:
        rows.length > input.limit && last
          ? encodeCursor(
              pageCursor,
              { key: last.at_key, id: last.project_id },
              { secret: ctx.apiKey, query: QUERY },
            )
          : null,
    };
  });
