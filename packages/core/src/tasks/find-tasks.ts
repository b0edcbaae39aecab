import { listTasks } from '@directory/db';
import { toTask } from '../schemas/task.ts';
import { keyedProcedure } from '../trpc.ts';
import { FindTasksInput, FindTasksOutput, findTasksMeta } from './find-tasks.types.ts';

export const findTasks = keyedProcedure
  .meta(findTasksMeta)
  .input(FindTasksInput)
  .output(FindTasksOutput)
  .query(async ({ ctx, input }) => {
    const page = await listTasks(ctx.db, input);
    return {
      success: true as const,
      tasks: page.rows.map(toTask),
      total: page.total,
      hasMore: input.offset + page.rows.length < page.total,
    };
  });
