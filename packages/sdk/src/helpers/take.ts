import type { Endpoints, LeasedTask } from '../types.ts';

export interface TakeOptions {
  /** The lease, 5-3600 seconds (the service's default: 300). */
  leaseSeconds?: number;
  /** A label for the claimer, shown on the task as `worker`. */
  worker?: string;
  /** Seconds to wait for a task when none is claimable, 0-30 (default 0). */
  wait?: number;
}

/**
 * Claims the oldest claimable task with a lease and returns it (with its `leaseToken`); null
 * when none is claimable. Concurrent takers, in any processes, never get the same task.
 */
export async function take(
  tasks: Pick<Endpoints['tasks'], 'claim'>,
  options: TakeOptions = {},
): Promise<LeasedTask | null> {
  const { tasks: claimed } = await tasks.claim({ limit: 1, ...options });
  return claimed[0] ?? null;
}
