import { insertTasks, type NewTask } from '@directory/db';
import { createId } from '../domain/ids.ts';
import { urlKey } from '../domain/url-key.ts';
import { notifyClaimable } from '../services/queue-signals.ts';
import { keyedProcedure } from '../trpc.ts';
import { CreateTasksInput, CreateTasksOutput, createTasksMeta } from './create-tasks.types.ts';

export const createTasks = keyedProcedure
  .meta(createTasksMeta)
  .input(CreateTasksInput)
  .output(CreateTasksOutput)
  .mutation(async ({ ctx, input }) => {
    // A url whose key repeats within the request counts once, at its first position.
    const byKey = new Map<string, NewTask>();
    for (const t of input.tasks) {
      const key = urlKey(t.sourceUrl);
      if (!byKey.has(key)) {
        byKey.set(key, {
          id: createId(),
          sourceUrl: t.sourceUrl,
          urlKey: key,
          sourceType: t.sourceType ?? 'manual',
        });
      }
    }
    const created = await insertTasks(ctx.db, [...byKey.values()]);
    if (created > 0) notifyClaimable();
    const total = input.tasks.length;
    return { success: true as const, created, skipped: total - created, total };
  });
