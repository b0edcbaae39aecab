import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.ts';

/**
 * The restore of an export into this directory, if it had one (migration 2026_11_29_001410_restores):
 * one row; finished_at null while its batches have not all come (docs/operating.md#restore-from-an-export).
 */
export interface RestoresTable {
  singleton: Generated<boolean>;
  as_of: Timestamp;
  cursor: string;
  expected: number;
  received: Generated<number>;
  last_id: string | null;
  started_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  finished_at: NullableTimestamp;
}

/** This database's id, made once (migration 2026_11_28_001000_database_instance). */
export interface DatabaseInstanceTable {
  id: Generated<string>;
  created_at: Generated<Timestamp>;
}
