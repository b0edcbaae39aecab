import type { TaskChange, TaskStatus } from '@directory/db';

/**
 * The task state machine (docs/api.md#7-patch-apidiscoverytasksid-change-status). A PATCH may make
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
 * The queue's moves (docs/workers.md#running-workers). Each is ONE guarded statement in
 * packages/db/src/queue/ (leases.ts: claim, heartbeat, release; reaper.ts) or tasks/write.ts
 * (updateTaskIfStatus: PATCH and complete); the live-lease condition they fence on is written
 * once, in packages/db/src/queue/live-lease.ts:
 * - claim:     PENDING, availableAt null or past → IN_PROGRESS, attempt + 1, a fresh lease (SKIP LOCKED)
 * - heartbeat: IN_PROGRESS with this live lease → the lease extended from now
 * - release:   IN_PROGRESS with this live lease → PENDING, lease cleared, availableAt = now + delay,
 *              retry counted
 * - reap:      IN_PROGRESS with a lease expired before now → PENDING with a backoff, or FAILED once
 *              attempt reaches the limit (REAPED says why; one reaper at a time: an advisory lock)
 * - PATCH and complete with a token: the moves above, only while it is the live lease; any move
 *   away from IN_PROGRESS ends the lease.
 * A live lease is `lease_expires_at >= now()` and the reaper takes `< now()`: racing on one row
 * (its lock orders them), exactly one of a reap and a fenced change takes effect.
 */
export const QUEUE_MOVES = {
  claim: { from: 'PENDING', to: 'IN_PROGRESS' },
  heartbeat: { from: 'IN_PROGRESS', to: 'IN_PROGRESS' },
  release: { from: 'IN_PROGRESS', to: 'PENDING' },
  reap: { from: 'IN_PROGRESS', to: ['PENDING', 'FAILED'] },
} as const satisfies Record<string, { from: TaskStatus; to: TaskStatus | readonly TaskStatus[] }>;

/** The error message a reaped task gets: back in the queue, or out of attempts. */
export const REAPED = {
  requeued: 'Lease expired',
  exhausted: 'Lease expired; attempts exhausted',
} as const;

/** The task fields that say whether a token holds its lease. */
export interface LeaseState {
  id: string;
  status: TaskStatus;
  lease_token: string | null;
  lease_expires_at: Date | null;
}

/**
 * Whether `token` can still be the task's lease, as far as a read row tells (the expiry is
 * judged by the guarded statement in the database's clock, not here). Used only to answer early.
 */
export const mayHoldLease = (task: LeaseState, token: string) =>
  task.status === 'IN_PROGRESS' && task.lease_token === token;

/** The detail of the 409 `Lease lost: …`: what became of the task the token no longer holds. */
export function leaseLostDetail(task: LeaseState, token: string): string {
  if (task.status !== 'IN_PROGRESS')
    return `Lease lost: task "${task.id}" is ${task.status} and holds no lease of this token`;
  if (task.lease_token === null)
    return `Lease lost: task "${task.id}" is IN_PROGRESS without a lease (set by PATCH)`;
  if (task.lease_token === token)
    return `Lease lost: the lease of task "${task.id}" expired at ${task.lease_expires_at?.toISOString()}`;
  return `Lease lost: the token is not the current lease of task "${task.id}" (expired, reclaimed or never valid)`;
}
