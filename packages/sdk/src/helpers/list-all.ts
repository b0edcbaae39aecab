import type { Endpoints, Task, TaskStatus } from '../types.ts';

export interface ListAllOptions {
  status?: TaskStatus;
  /** Tasks per request, 1-100. */
  pageSize?: number;
}

/** Every task (of one status, if given) in queue order, one page at a time, following `hasMore`. */
export async function* listAll(
  list: Endpoints['tasks']['list'],
  options: ListAllOptions = {},
): AsyncGenerator<Task[], void, undefined> {
  const { status, pageSize = 100 } = options;
  let offset = 0;
  for (;;) {
    const page = await list({ status, limit: pageSize, offset });
    if (page.tasks.length > 0) yield page.tasks;
    // An empty page ends the walk even if the service still says hasMore (tasks vanished meanwhile).
    if (!page.hasMore || page.tasks.length === 0) return;
    offset += page.tasks.length;
  }
}
