import { findRevisions } from '@directory/db';
import { decodeCursor, encodeCursor, pageCursor } from '../domain/cursor.ts';
import { historyProjectId } from '../services/history-project.ts';
import { publicProcedure, readDbOf } from '../trpc.ts';
import { ListRevisionsInput, ListRevisionsOutput, listRevisionsMeta } from './list-revisions.types.ts';
import { toRevisionSummary } from './revision.types.ts';

export const listRevisions = publicProcedure
  .meta(listRevisionsMeta)
  .input(ListRevisionsInput)
  .output(ListRevisionsOutput)
  .query(async ({ ctx, input }) => {
    const projectId = await historyProjectId(readDbOf(ctx), input.slug);
    // A cursor is bound to its project: the revision number it stopped at, signed.
    const scope = { secret: ctx.apiKey, query: { revisions: projectId } };
    const before =
      input.cursor === undefined ? undefined : Number(decodeCursor(pageCursor, input.cursor, scope).key);
    const rows = await findRevisions(readDbOf(ctx), projectId, { before, limit: input.limit + 1 });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      success: true as const,
      revisions: page.map(toRevisionSummary),
      nextCursor:
        rows.length > input.limit && last
          ? encodeCursor(pageCursor, { key: last.revision, id: projectId }, scope)
          : null,
    };
  });
