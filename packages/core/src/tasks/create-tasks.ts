import { insertTasks } from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { keyedProcedure } from '../trpc.ts';
import { CreateTasksInput, CreateTasksOutput, createTasksMeta } from './create-tasks.types.ts';
import { notifyClaimable } from './queue-signals.ts';

export const createTasks = keyedProcedure
  .meta(createTasksMeta)
  .input(CreateTasksInput)
  .output(CreateTasksOutput)
  .mutation(async ({ ctx, input }) => {
    // A url repeated within the request counts once, at its first position.
    const byUrl = new Map<string, { id: string; sourceUrl: string; sourceType: string }>();
    for (const t of input.tasks) {
      if (!byUrl.has(t.sourceUrl)) {
        byUrl.set(t.sourceUrl, {
          id: createId(),
          sourceUrl: t.sourceUrl,
          sourceType: t.sourceType ?? 'manual',
        });
      }
    }
    const created = await insertTasks(ctx.db, [...byUrl.values()]);
    if (created > 0) notifyClaimable();
    const total = input.tasks.length;
    return { success: true as const, created, skipped: total - created, total };
  });
