import type { TaskChange, TaskStatus } from '@directory/db';

/**
 * The task state machine (SPEC "TaskStatus", DECISIONS "Discovery tasks"). A PATCH may make
 * exactly these moves; anything else, the same status again and every move out of COMPLETED
 * included, is a 409.
 */
const PATCH_TRANSITIONS: readonly (TaskChange & { from: TaskStatus })[] = [
  { from: 'PENDING', status: 'IN_PROGRESS', startedAt: 'now', completedAt: 'keep', countRetry: false },
  { from: 'IN_PROGRESS', status: 'COMPLETED', startedAt: 'keep', completedAt: 'now', countRetry: false },
  { from: 'IN_PROGRESS', status: 'FAILED', startedAt: 'keep', completedAt: 'now', countRetry: false },
  // retry: back in the queue, counted; errorMessage keeps the last failure
  { from: 'FAILED', status: 'PENDING', startedAt: 'clear', completedAt: 'clear', countRetry: true },
];

/** The change a PATCH from `from` to `to` makes, or undefined when the move is not allowed. */
export function patchTransition(from: TaskStatus, to: TaskStatus): TaskChange | undefined {
  const found = PATCH_TRANSITIONS.find((t) => t.from === from && t.status === to);
  if (!found) return undefined;
  const { from: _from, ...change } = found;
  return change;
}

export const conflictDetail = (from: TaskStatus, to: TaskStatus) =>
  `Cannot change task status from ${from} to ${to}`;

/** The complete operation starts from any state but the terminal one. */
export const COMPLETABLE: readonly TaskStatus[] = ['PENDING', 'IN_PROGRESS', 'FAILED'];

/** Completing: COMPLETED with the project linked, the failure of an earlier attempt cleared. */
export function completeChange(projectId: string, explorationData: unknown): TaskChange {
  return {
    status: 'COMPLETED',
    startedAt: 'now-if-null',
    completedAt: 'now',
    countRetry: false,
    projectId,
    explorationData,
    errorMessage: null,
  };
}

const MAX_ERROR_MESSAGE = 2000;

/** A failed complete: FAILED with the reason recorded. */
export function failChange(errorMessage: string): TaskChange {
  return {
    status: 'FAILED',
    startedAt: 'keep',
    completedAt: 'now',
    countRetry: false,
    errorMessage: Array.from(errorMessage).slice(0, MAX_ERROR_MESSAGE).join(''),
  };
}

/*
 * The queue's moves (EXTENSIONS B), each ONE guarded statement in packages/db/src/queue.repository.ts:
 * - claim:     PENDING, availableAt null or past → IN_PROGRESS, attempt + 1, a fresh lease (SKIP LOCKED)
 * - heartbeat: IN_PROGRESS with this live lease → the lease extended from now
 * - release:   IN_PROGRESS with this live lease → PENDING, lease cleared, availableAt = now + delay, retry counted
 * - reap:      IN_PROGRESS with a lease expired before now → PENDING with a backoff, or FAILED once
 *              attempt reaches the limit (one reaper at a time: an advisory lock)
 * - PATCH and complete with a token: the moves above, only while it is the live lease; any move
 *   away from IN_PROGRESS ends the lease (updateTaskIfStatus).
 * A live lease is `lease_expires_at >= now()` and the reaper takes `< now()`: racing on one row
 * (its lock orders them), exactly one of a reap and a fenced change takes effect.
 */
