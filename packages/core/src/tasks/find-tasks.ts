import { readTaskPage } from '@directory/db';
import { decodeCursor, encodeCursor, taskCursor } from '../domain/cursor.ts';
import { AppError } from '../errors.ts';
import { toTask } from '../schemas/task.ts';
import { keyedProcedure } from '../trpc.ts';
import { FindTasksInput, FindTasksOutput, findTasksMeta } from './find-tasks.types.ts';

export const findTasks = keyedProcedure
  .meta(findTasksMeta)
  .input(FindTasksInput)
  .output(FindTasksOutput)
  .query(async ({ ctx, input }) => {
    const { status, limit, offset, cursor } = input;
    if (cursor !== undefined && offset > 0)
      throw new AppError('VALIDATION', ['cursor: Use either cursor or offset, not both']);
    // A cursor belongs to its status filter.
    const scope = { query: { status: status ?? null } };
    const after = cursor === undefined ? undefined : decodeCursor(taskCursor, cursor, scope);
    // With a cursor, one row more than the page tells whether another page follows; by
    // offset, hasMore keeps its contract meaning (offset + page < total).
    const page = await readTaskPage(ctx.db, { status, offset, after, limit: after ? limit + 1 : limit });
    const rows = page.rows.slice(0, limit);
    const hasMore = after ? page.rows.length > limit : offset + rows.length < page.total;
    const last = rows[rows.length - 1];
    const lastCreatedAt = page.createdAtTexts[rows.length - 1];
    return {
      success: true as const,
      tasks: rows.map(toTask),
      total: page.total,
      hasMore,
      nextCursor:
        hasMore && last && lastCreatedAt
          ? encodeCursor(taskCursor, { createdAt: lastCreatedAt, id: last.id }, scope)
          : null,
    };
  });
