import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Timestamps are read as Date and may be written as Date, ISO string or SQL default. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type ProjectStatus = 'ACTIVE' | 'ARCHIVED';
export type LinkType = 'WEBSITE' | 'CODEHOST' | 'MODELHUB' | 'PAPER';
export type TaskStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

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

export interface TagsTable {
  id: string;
  /** Null only for a merged tag whose name the tag it went into took (a rename). */
  name: ColumnType<string | null, string, string | null>;
  name_en: string | null;
  slug: string;
  created_at: Timestamp;
  /** A merged tag: the tag it now stands for (migration 2026_11_28_001100_tag_curation). */
  alias_of: ColumnType<string | null, string | null | undefined, string | null>;
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

/**
 * Curated results (docs/search.md#curated-results-pins): one row, replaced whole by PUT
 * /api/search/pins (migration 2026_11_28_001220_search_pins).
 */
export interface SearchPinsTable {
  id: Generated<number>;
  /** Each pin: its normalised query, the slugs shown first, the slugs never shown. */
  pins: ColumnType<{ query: string; first: string[]; hide: string[] }[], string, string>;
  /** Bumped by every replace: processes re-read the pins when it moves. */
  version: Generated<string>;
  updated_at: Timestamp;
}

/**
 * Search synonyms (docs/search.md#search-as-a-search-engine): one row, replaced whole by PUT
 * /api/search/synonyms.
 */
export interface SearchSynonymsTable {
  id: Generated<number>;
  /** The sets, each a list of terms as given. */
  sets: ColumnType<string[][], string, string>;
  /** Bumped by every replace: processes re-read the sets when it moves. */
  version: Generated<string>;
  updated_at: Timestamp;
}

export interface QueueTotalsTable {
  name: string;
  value: number;
}

export type ChangeType =
  | 'project.created'
  | 'project.updated'
  | 'project.deleted'
  | 'project.merged'
  | 'task.created'
  | 'task.updated'
  | 'tag.updated';

/** Written only by triggers (migration 2026_11_23_000300_changes). */
export interface ChangesTable {
  id: Generated<string>;
  xid: Generated<string>;
  type: ChangeType;
  at: Generated<Date>;
  project_id: string | null;
  slug: string | null;
  task_id: string | null;
  /** project.merged: the project the changed one went into (migration 2026_11_25_000710_merges). */
  into_project_id: string | null;
  into_slug: string | null;
  /** tag.updated: the tag renamed or merged (migration 2026_11_28_001100_tag_curation). */
  tag_id: string | null;
}

/** The slug of a project merged into another; project_id is the final target. */
export interface ProjectAliasesTable {
  slug: string;
  project_id: string;
  merged_id: string;
  created_at: Timestamp;
}

export interface WebhooksTable {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  /** The secret a rotation replaced, signing too until previous_secret_until (migration 2026_11_28_001130_webhook_secret_rotation). */
  previous_secret: string | null;
  previous_secret_until: NullableTimestamp;
  enabled: Generated<boolean>;
  consecutive_failures: Generated<number>;
  disabled_at: NullableTimestamp;
  created_at: Timestamp;
  /** The lineage of the key that made it; null: admins only (migration 2026_11_28_001210_webhook_owners). */
  owner: string | null;
}

/** One row (singleton): the last change removed by retention (migration 2026_11_23_000300_changes). */
export interface ChangeFeedStateTable {
  singleton: Generated<boolean>;
  pruned_xid: Generated<string>;
  pruned_id: Generated<string>;
  /** The cluster the feed was last written on (migration 2026_11_28_001300_feed_cluster). */
  cluster: string | null;
}

export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** Queued by a trigger on `changes`, one row per change and subscribed webhook. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  change_id: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}

/** Every attempt to deliver, kept for GET /api/webhooks/{id}/deliveries until retention. */
export interface WebhookAttemptsTable {
  id: Generated<string>;
  webhook_id: string;
  /** Null for a ping (migration 2026_11_28_001140_webhook_delivery_details), as change_id. */
  delivery_id: string | null;
  change_id: string | null;
  event: string;
  status_code: number | null;
  error: string | null;
  success: boolean;
  duration_ms: number;
  at: Timestamp;
  type: Generated<'change' | 'ping'>;
  /** A ping's `webhook-id`; null for a change's attempt (chg_<change_id>). */
  message_id: string | null;
  /** What was sent and what came back; null for attempts recorded before migration 001140. */
  request_url: string | null;
  request_headers: Record<string, string> | null;
  request_body: string | null;
  response_headers: Record<string, string> | null;
  /** At most the answer's first 4096 bytes (response_body_truncated: it had more). */
  response_body: string | null;
  response_body_truncated: Generated<boolean>;
}

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

/**
 * The last merge of each merged tag that can still be undone (migration 2026_11_29_001500_tag_merges,
 * docs/curation.md#undoing-a-merge): the tag it went into and the aliases it had then.
 */
export interface TagMergesTable {
  tag_id: string;
  into_id: string;
  aliases: string[];
  merged_at: Generated<Timestamp>;
}

/** The projects a recorded tag merge moved: their tag ids before it, in order, and the revision it stored. */
export interface TagMergeProjectsTable {
  tag_id: string;
  project_id: string;
  tags: string[];
  revision: Generated<number>;
}

/** Named keys (migration 2026_11_26_000960_api_keys): the SHA-256 of each key, never the key. */
export interface ApiKeysTable {
  id: string;
  name: string;
  hash: string;
  start: string;
  scopes: string[];
  created_at: Generated<Date>;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  rate_limit_requests: number | null;
  rate_limit_window_seconds: number | null;
  admin: Generated<boolean>;
  /** The first key of its chain of rotations (migration 2026_11_28_001010); null: its own id. */
  lineage: string | null;
}

/** rate-limiter-flexible's counters (RateLimiterPostgres). */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: string | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** Pairs of projects said to be distinct (migration 2026_11_26_000950_curation): project_a < project_b. */
export interface DuplicateDismissalsTable {
  project_a: string;
  project_b: string;
  at: Generated<Timestamp>;
  actor: string | null;
}

/** This database's id, made once (migration 2026_11_28_001000_database_instance). */
export interface DatabaseInstanceTable {
  id: Generated<string>;
  created_at: Generated<Timestamp>;
}

export interface Database {
  projects: ProjectsTable;
  tags: TagsTable;
  project_tags: ProjectTagsTable;
  links: LinksTable;
  discovery_tasks: DiscoveryTasksTable;
  discovery_task_counts: DiscoveryTaskCountsTable;
  queue_totals: QueueTotalsTable;
  search_synonyms: SearchSynonymsTable;
  search_pins: SearchPinsTable;
  changes: ChangesTable;
  project_aliases: ProjectAliasesTable;
  webhooks: WebhooksTable;
  change_feed_state: ChangeFeedStateTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  project_revisions: ProjectRevisionsTable;
  duplicate_dismissals: DuplicateDismissalsTable;
  api_keys: ApiKeysTable;
  rate_limits: RateLimitsTable;
  server_secrets: ServerSecretsTable;
  database_instance: DatabaseInstanceTable;
  restores: RestoresTable;
  tag_merges: TagMergesTable;
  tag_merge_projects: TagMergeProjectsTable;
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
export type TaskRow = Selectable<DiscoveryTasksTable>;
export type WebhookRow = Selectable<WebhooksTable>;
