/**
 * The type of every table the migrations leave: the Database Kysely is typed with. Each area's tables
 * are in a file of tables/, exported from here so that every import reads './tables.ts'.
 */
import type { ChangeFeedStateTable, ChangesTable } from './tables/feed.ts';
import type { ProjectRevisionsTable } from './tables/history.ts';
import type { DatabaseInstanceTable, RestoresTable } from './tables/instance.ts';
import type { ApiKeysTable, RateLimitsTable, ServerSecretsTable } from './tables/keys.ts';
import type {
  DuplicateDismissalsTable,
  LinksTable,
  ProjectAliasesTable,
  ProjectsTable,
  ProjectTagsTable,
} from './tables/projects.ts';
import type { DiscoveryTaskCountsTable, DiscoveryTasksTable, QueueTotalsTable } from './tables/queue.ts';
import type { SearchPinsTable, SearchSynonymsTable } from './tables/search.ts';
import type { TagMergeProjectsTable, TagMergesTable, TagsTable } from './tables/tags.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from './tables/webhooks.ts';

export * from './tables/feed.ts';
export * from './tables/history.ts';
export * from './tables/instance.ts';
export * from './tables/keys.ts';
export * from './tables/projects.ts';
export * from './tables/queue.ts';
export * from './tables/search.ts';
export * from './tables/tags.ts';
export * from './tables/webhooks.ts';

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
