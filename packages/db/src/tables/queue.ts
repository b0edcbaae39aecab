import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.ts';

export type TaskStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface DiscoveryTasksTable {
  id: string;
  source_url: string;
  /** core's urlKey(source_url): one task per key. */
  url_key: string | null;
  source_type: string;
  status: Generated<TaskStatus>;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  project_id: string | null;
  exploration_data: ColumnType<unknown, string | null | undefined, string | null>;
  exploration_summary: string | null;
  error_message: string | null;
  retry_count: Generated<number>;
  last_retry_at: NullableTimestamp;
  attempt: Generated<number>;
  lease_token: string | null;
  lease_expires_at: NullableTimestamp;
  lease_seconds: number | null;
  worker: string | null;
  available_at: NullableTimestamp;
}

export interface DiscoveryTaskCountsTable {
  status: TaskStatus;
  shard: number;
  n: number;
}

export interface QueueTotalsTable {
  name: string;
  value: number;
}

export type TaskRow = Selectable<DiscoveryTasksTable>;
