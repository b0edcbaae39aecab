import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.ts';

export type ProjectStatus = 'ACTIVE' | 'ARCHIVED';
export type LinkType = 'WEBSITE' | 'CODEHOST' | 'MODELHUB' | 'PAPER';

export interface ProjectsTable {
  id: string;
  name: string;
  name_en: string | null;
  slug: string;
  description: string;
  description_en: string | null;
  content: string | null;
  content_en: string | null;
  status: ProjectStatus;
  source: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  // the lock (migration 2026_11_25_000800_history): lock_fields null when unlocked
  lock_fields: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  lock_reason: ColumnType<string | null, string | null | undefined, string | null>;
  lock_at: NullableTimestamp;
  /** Signals (migration 2026_11_28_001200_project_signals): null when never sent. */
  stars: ColumnType<number | null, number | null | undefined, number | null>;
  downloads: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ProjectTagsTable {
  project_id: string;
  tag_id: string;
  position: number;
}

export interface LinksTable {
  id: string;
  project_id: string;
  type: LinkType;
  url: string;
  /**
   * core's urlKey(url) (docs/curation.md#same-project-other-spelling): every comparison of urls compares
   * this.
   */
  url_key: string | null;
  title: string | null;
  position: number;
}

/** The slug of a project merged into another; project_id is the final target. */
export interface ProjectAliasesTable {
  slug: string;
  project_id: string;
  merged_id: string;
  created_at: Timestamp;
}

/** Pairs of projects said to be distinct (migration 2026_11_26_000950_curation): project_a < project_b. */
export interface DuplicateDismissalsTable {
  project_a: string;
  project_b: string;
  at: Generated<Timestamp>;
  actor: string | null;
}

/** The columns of a project as the API shows it (the search columns are the service's own). */
export const PROJECT_COLUMNS = [
  'id',
  'name',
  'name_en',
  'slug',
  'description',
  'description_en',
  'content',
  'content_en',
  'status',
  'source',
  'created_at',
  'updated_at',
  'stars',
  'downloads',
] as const;
export type ProjectRow = Pick<Selectable<ProjectsTable>, (typeof PROJECT_COLUMNS)[number]>;
export type NewProjectRow = Pick<Insertable<ProjectsTable>, (typeof PROJECT_COLUMNS)[number]>;
