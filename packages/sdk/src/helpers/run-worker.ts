import { DirectoryError } from '../errors.ts';
import type { Endpoints, LeasedTask, ProjectInput } from '../types.ts';

export interface WorkerContext {
  /** Aborts when the worker stops or the task's lease is lost: stop working on the task. */
  signal: AbortSignal;
}

export interface RunWorkerOptions {
  /** Does the work of one task and resolves to the project it found; a throw releases the task. */
  handler: (task: LeasedTask, ctx: WorkerContext) => Promise<ProjectInput>;
  /** Tasks worked on at once (default 1); claims take as many as there are free slots, up to 50. */
  concurrency?: number;
  /** The lease of each claim, 5-3600 s (default 300); a heartbeat renews it every third of it. */
  leaseSeconds?: number;
  /** Stops the worker: no more claims, and every task still held is released at once. */
  signal?: AbortSignal;
  /** A label for the claims, shown on the tasks as `worker`. */
  worker?: string;
  /** Long-poll seconds of a claim while the worker has nothing to do, 0-30 (default 10). */
  waitSeconds?: number;
  /** The delay before a task whose handler threw can be claimed again (default 30·2^(attempt-1) s, at most 1 h). */
  retryAfterSeconds?: (task: LeasedTask, error: unknown) => number;
  /** Return once nothing is claimable and nothing is running (a batch run), instead of waiting for more. */
  stopWhenEmpty?: boolean;
  /** Told of each task's outcome (for logs and progress). */
  onEvent?: (event: WorkerEvent) => void;
}

export type WorkerEvent =
  | {
      type: 'completed';
      task: LeasedTask;
      projectId: string;
      action: 'created' | 'updated';
      /** An update that may be wrong (docs/curation.md#updates-that-may-be-wrong); absent when none. */
      warnings?: string[];
    }
  | { type: 'released'; task: LeasedTask; error: string }
  | { type: 'failed'; task: LeasedTask; error: string }
  | { type: 'lost'; task: LeasedTask; error: string }
  | { type: 'error'; error: unknown };

export interface WorkerTotals {
  /** Completed with the handler's project. */
  completed: number;
  /** Given back: the handler threw, or the worker stopped. */
  released: number;
  /** Refused by the service as invalid exploration data (the task is FAILED). */
  failed: number;
  /** The lease was lost (expired and taken by another worker): the result was not written. */
  lost: number;
}

const defaultBackoff = (task: LeasedTask) => Math.min(3600, 30 * 2 ** Math.max(0, task.attempt - 1));
const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);
const isLeaseLost = (err: unknown) => err instanceof DirectoryError && err.status === 409;

/**
 * The worker loop: claims tasks in batches (long-polling when the queue is empty), runs the
 * handler for each with a heartbeat at a third of the lease, completes it with the lease token
 * (so a late result of a lease that was lost is refused, not written), releases it with the
 * error and a backoff when the handler throws, and releases everything it holds when `signal`
 * aborts. Resolves to the totals once stopped and every task is settled.
 */
export async function runWorker(
  tasks: Pick<Endpoints['tasks'], 'claim' | 'heartbeat' | 'release' | 'complete'>,
  options: RunWorkerOptions,
): Promise<WorkerTotals> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const leaseSeconds = options.leaseSeconds ?? 300;
  const waitSeconds = options.waitSeconds ?? 10;
  const backoff = options.retryAfterSeconds ?? defaultBackoff;
  const emit = options.onEvent ?? (() => {});
  const stop = options.signal;
  const totals: WorkerTotals = { completed: 0, released: 0, failed: 0, lost: 0 };
  const running = new Set<Promise<void>>();
  const stopped = new Promise<void>((resolve) => {
    if (!stop || stop.aborted) return resolve();
    stop.addEventListener('abort', () => resolve(), { once: true });
  });

  async function work(task: LeasedTask): Promise<void> {
    const lease = new AbortController();
    const onStop = () => lease.abort(new Error('Worker stopped'));
    stop?.addEventListener('abort', onStop, { once: true });
    let lost = false;
    const beat = setInterval(
      () => {
        tasks.heartbeat({ id: task.id, leaseToken: task.leaseToken }).catch((err) => {
          if (!isLeaseLost(err)) return emit({ type: 'error', error: err });
          lost = true;
          lease.abort(new Error(message(err)));
        });
      },
      (leaseSeconds * 1000) / 3,
    );
    const settle = async (outcome: () => Promise<void>) => {
      try {
        await outcome();
      } catch (err) {
        if (isLeaseLost(err)) {
          totals.lost++;
          emit({ type: 'lost', task, error: message(err) });
        } else emit({ type: 'error', error: err });
      }
    };
    const release = (error: string, retryAfterSeconds: number) =>
      settle(async () => {
        await tasks.release({
          id: task.id,
          leaseToken: task.leaseToken,
          errorMessage: error,
          retryAfterSeconds,
        });
        totals.released++;
        emit({ type: 'released', task, error });
      });
    // Stopping releases at once, without waiting for the handler.
    const handled = options.handler(task, { signal: lease.signal }).then(
      (project) => ({ ok: true as const, project }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const result = await Promise.race([handled, stopped.then(() => undefined)]);
    clearInterval(beat);
    stop?.removeEventListener('abort', onStop);
    if (result === undefined || stop?.aborted) return release('Worker stopped', 0);
    if (lost) {
      totals.lost++;
      return emit({ type: 'lost', task, error: 'Lease lost while working' });
    }
    if (!result.ok) return release(message(result.error), Math.round(backoff(task, result.error)));
    await settle(async () => {
      try {
        const done = await tasks.complete({
          id: task.id,
          explorationData: result.project,
          leaseToken: task.leaseToken,
        });
        totals.completed++;
        emit({
          type: 'completed',
          task,
          projectId: done.projectId,
          action: done.action,
          ...(done.warnings && done.warnings.length > 0 && { warnings: done.warnings }),
        });
      } catch (err) {
        if (!(err instanceof DirectoryError && err.status === 400)) throw err;
        totals.failed++;
        emit({ type: 'failed', task, error: message(err) });
      }
    });
  }

  while (!stop?.aborted) {
    const free = concurrency - running.size;
    if (free === 0) {
      await Promise.race(running);
      continue;
    }
    let claimed: LeasedTask[];
    try {
      const claim = tasks.claim({
        limit: Math.min(50, free),
        leaseSeconds,
        ...(options.worker !== undefined && { worker: options.worker }),
        // wait only when there is nothing else to do: a finished task frees a slot meanwhile
        wait: running.size === 0 ? waitSeconds : 0,
      });
      claimed = (await claim).tasks;
    } catch (err) {
      emit({ type: 'error', error: err });
      await Promise.race([new Promise((r) => setTimeout(r, 1000)), stopped]);
      continue;
    }
    if (claimed.length === 0 && running.size === 0 && options.stopWhenEmpty) break;
    for (const task of claimed) {
      const p = work(task).finally(() => running.delete(p));
      running.add(p);
    }
    // nothing claimable and tasks still running: wait for one of them rather than spin
    if (claimed.length === 0 && running.size > 0) {
      await Promise.race([...running, new Promise((r) => setTimeout(r, 1000))]);
    }
  }
  await Promise.all(running);
  return totals;
}
