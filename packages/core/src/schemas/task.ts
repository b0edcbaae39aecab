import type { TaskRow } from '@directory/db';
import { z } from 'zod';
import { iso, isoOrNull, timestamp } from './common.ts';

export const TASK_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);

export const Task = z
  .object({
    id: z.string(),
    sourceUrl: z.string(),
    sourceType: z.string(),
    status: TaskStatus,
    createdAt: timestamp,
    startedAt: timestamp.nullable(),
    completedAt: timestamp.nullable(),
    projectId: z.string().nullable(),
    explorationData: z.record(z.string(), z.unknown()).nullable(),
    explorationSummary: z.string().nullable(),
    errorMessage: z.string().nullable(),
    retryCount: z.int().min(0),
    lastRetryAt: timestamp.nullable(),
    attempt: z.number().int().min(0).meta({ description: 'Claims so far; 0 until first claimed' }),
    leaseExpiresAt: timestamp
      .nullable()
      .meta({ description: 'When the current lease ends; null without a lease' }),
    worker: z.string().nullable().meta({ description: "The label of the task's last claimer" }),
    availableAt: timestamp.nullable().meta({ description: 'Not claimable before then; null: at once' }),
  })
  .meta({ id: 'DiscoveryTask' });
export type Task = z.infer<typeof Task>;

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    sourceUrl: row.source_url,
    sourceType: row.source_type,
    status: row.status,
    createdAt: iso(row.created_at),
    startedAt: isoOrNull(row.started_at),
    completedAt: isoOrNull(row.completed_at),
    projectId: row.project_id,
    // stored only as a JSON object (PATCH) or a ProjectInput (complete)
    explorationData: (row.exploration_data ?? null) as Record<string, unknown> | null,
    explorationSummary: row.exploration_summary,
    errorMessage: row.error_message,
    retryCount: row.retry_count,
    lastRetryAt: isoOrNull(row.last_retry_at),
    attempt: row.attempt,
    leaseExpiresAt: isoOrNull(row.lease_expires_at),
    worker: row.worker,
    availableAt: isoOrNull(row.available_at),
  };
}

/** A task as its claimer gets it: with the lease token, which no other response shows. */
export const LeasedTask = Task.extend({
  leaseToken: z
    .string()
    .meta({ description: 'Proves the lease: send it with heartbeat, release, PATCH and complete' }),
}).meta({ id: 'LeasedDiscoveryTask' });
export type LeasedTask = z.infer<typeof LeasedTask>;

export function toLeasedTask(row: TaskRow & { lease_token: string }): LeasedTask {
  return { ...toTask(row), leaseToken: row.lease_token };
}
