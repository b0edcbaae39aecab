import type { Endpoints, Task, TaskStatus } from '../types.ts';

export interface ListAllOptions {
  status?: TaskStatus;
  /** Tasks per request, 1-100. */
  pageSize?: number;
}

/**
 * Every task (of one status, if given) in queue order, one page at a time, following
 * `nextCursor`: no task is skipped or repeated while tasks are added meanwhile.
 */
export async function* listAll(
  list: Endpoints['tasks']['list'],
  options: ListAllOptions = {},
): AsyncGenerator<Task[], void, undefined> {
  const { status, pageSize = 100 } = options;
  let cursor: string | undefined;
  for (;;) {
    const page = await list({ status, limit: pageSize, ...(cursor !== undefined && { cursor }) });
    if (page.tasks.length > 0) yield page.tasks;
    if (!page.nextCursor || page.tasks.length === 0) return;
    cursor = page.nextCursor;
  }
}
