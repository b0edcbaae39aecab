import { findTaskById } from '@directory/db';
import { AppError } from '../errors.ts';
import type { Context } from '../trpc.ts';
import { taskNotFound } from './get-task.ts';

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

export function leaseLostDetail(
  task: { id: string; status: string; lease_token: string | null; lease_expires_at: Date | null },
  token: string,
): string {
  if (task.status !== 'IN_PROGRESS')
    return `Lease lost: task "${task.id}" is ${task.status} and holds no lease of this token`;
  if (task.lease_token === null)
    return `Lease lost: task "${task.id}" is IN_PROGRESS without a lease (set by PATCH)`;
  if (task.lease_token === token)
    return `Lease lost: the lease of task "${task.id}" expired at ${task.lease_expires_at?.toISOString()}`;
  return `Lease lost: the token is not the current lease of task "${task.id}" (expired, reclaimed or never valid)`;
}
