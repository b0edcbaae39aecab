import { DirectoryError } from '../errors.ts';
import type { Endpoints, Task } from '../types.ts';

export interface TakeOptions {
  /** PENDING tasks fetched per request, 1-100. */
  pageSize?: number;
}

/**
 * Moves the oldest PENDING task to IN_PROGRESS and returns it; null when none is PENDING.
 * The service lets exactly one of several racing PATCHes win (the others get 409), so a
 * worker that loses a task moves on to the next, refetching once its page is used up.
 */
export async function take(
  tasks: Pick<Endpoints['tasks'], 'list' | 'updateStatus'>,
  options: TakeOptions = {},
): Promise<Task | null> {
  const { pageSize = 100 } = options;
  for (;;) {
    // Always from the start of the queue: tasks lost to others are no longer PENDING.
    const page = await tasks.list({ status: 'PENDING', limit: pageSize, offset: 0 });
    if (page.tasks.length === 0) return null;
    for (const candidate of page.tasks) {
      try {
        return (await tasks.updateStatus({ id: candidate.id, status: 'IN_PROGRESS' })).task;
      } catch (err) {
        if (!(err instanceof DirectoryError && err.status === 409)) throw err;
      }
    }
  }
}
