import { findTaskById } from '@directory/db';
import { leaseLostDetail } from '../domain/task-transitions.ts';
import { AppError } from '../errors.ts';
import { taskNotFound } from '../tasks/get-task.ts';
import type { Context } from '../trpc.ts';

/**
 * The answer when a guarded change found the token not to be the task's live lease: 404
 * when there is no such task, otherwise 409 `Lease lost: …` saying what became of it. Read
 * after the refused write only to explain it; nothing is decided on this read.
 */
export async function leaseLost(ctx: Context, id: string, token: string): Promise<AppError> {
  const task = await findTaskById(ctx.db, id);
  if (!task) return taskNotFound(id);
  ctx.count?.('fenced', 1);
  return new AppError('CONFLICT', [leaseLostDetail(task, token)]);
}
