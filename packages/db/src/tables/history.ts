import type { ColumnType } from 'kysely';
import type { Timestamp } from './columns.ts';

export type RevisionAction = 'created' | 'updated' | 'deleted';
export type RevisionVia =
  | 'upsert'
  | 'complete'
  | 'merge'
  | 'revert'
  | 'restore'
  | 'delete'
  | 'lock'
  | 'edit'
  | 'tag-merge'
  | 'import-restore'
  | 'tag-unmerge';

/** A project's revisions (migration 2026_11_25_000800_history): the whole project as of each write. */
export interface ProjectRevisionsTable {
  project_id: string;
  revision: number;
  at: Timestamp;
  action: RevisionAction;
  via: RevisionVia;
  source: string | null;
  task_id: string | null;
  actor: string | null;
  slug: string;
  name: string;
  name_en: string | null;
  body_hash: string;
  project: ColumnType<unknown, string, string>;
  /** The named key that made it (migration 2026_11_26_000960_api_keys); null: the bootstrap key. */
  key_id: string | null;
  key_name: string | null;
  /** A merge's revision of the project kept: the slugs merged into it (migration 2026_11_27_000980). */
  merged: string[] | null;
  /** The request's X-Directory-Summary (migration 2026_11_28_001110_revision_summaries). */
  summary: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * What may be wrong with the write that made it (migration 2026_11_28_001120_revision_warnings):
   * an upsert or complete matched by slug only whose links differ; null when none.
   */
  warnings: ColumnType<string[] | null, string | null | undefined, string | null>;
}
