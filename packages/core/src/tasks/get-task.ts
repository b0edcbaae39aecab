import { findTaskById } from '@directory/db';
import { AppError } from '../errors.ts';
import { toTask } from '../schemas/task.ts';
import { publicProcedure } from '../trpc.ts';
import { GetTaskInput, GetTaskOutput, getTaskMeta } from './get-task.types.ts';

export const taskNotFound = (id: string) => new AppError('NOT_FOUND', [`Task with id "${id}" not found`]);

export const getTask = publicProcedure
  .meta(getTaskMeta)
  .input(GetTaskInput)
  .output(GetTaskOutput)
  .query(async ({ ctx, input }) => {
    const row = await findTaskById(ctx.db, input.id);
    if (!row) throw taskNotFound(input.id);
    return { success: true as const, task: toTask(row) };
  });
