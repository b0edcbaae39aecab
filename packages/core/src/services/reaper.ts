import { type Database, type Kysely, reapExpiredLeases } from '@directory/db';
import { REAPED } from '../domain/task-transitions.ts';

export interface ReaperSettings {
  /** TASK_REAP_INTERVAL_MS; 0 turns the reaper off. */
  intervalMs: number;
  /** TASK_MAX_ATTEMPTS: a lease that expires on this attempt sends the task to FAILED. */
  maxAttempts: number;
  /** TASK_BACKOFF_BASE_MS and TASK_BACKOFF_MAX_MS: the delay after the n-th expiry is base·2^(n-1), capped, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_REAPER: ReaperSettings = {
  intervalMs: 10_000,
  maxAttempts: 5,
  backoffBaseMs: 30_000,
  backoffMaxMs: 3_600_000,
};

const BATCH = 1000;

/**
 * One pass of the reaper: expired leases go back to PENDING (or FAILED once out of attempts),
 * in batches of one guarded UPDATE each, until none is left. In one process at a time across
 * all server processes (an advisory lock); a pass that finds another reaper running does nothing.
 */
export async function reapExpiredTasks(
  db: Kysely<Database>,
  settings: Omit<ReaperSettings, 'intervalMs'>,
): Promise<{ ran: boolean; requeued: number; failed: number }> {
  const total = { ran: false, requeued: 0, failed: 0 };
  for (;;) {
    const pass = await reapExpiredLeases(db, {
      maxAttempts: settings.maxAttempts,
      backoffBaseSeconds: settings.backoffBaseMs / 1000,
      backoffMaxSeconds: settings.backoffMaxMs / 1000,
      batchSize: BATCH,
      messages: REAPED,
    });
    if (!pass.ran) return total;
    total.ran = true;
    total.requeued += pass.requeued;
    total.failed += pass.failed;
    if (pass.requeued + pass.failed < BATCH) return total;
  }
}

/**
 * Runs the reaper every `intervalMs` (never two passes of this process at once) until stopped.
 * Failures (the database away) are reported and the next pass tries again.
 */
export function startReaper(options: {
  db: Kysely<Database>;
  settings: ReaperSettings;
  onReaped?: (result: { requeued: number; failed: number }) => void;
  onError?: (err: unknown) => void;
}): { stop(): Promise<void> } {
  const { db, settings } = options;
  if (settings.intervalMs <= 0) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = reapExpiredTasks(db, settings)
      .then((r) => {
        if (r.requeued + r.failed > 0) options.onReaped?.(r);
      })
      .catch((err) => options.onError?.(err))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, settings.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
