import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { backfillUrlKeys } from './backfill/url-keys.ts';
import { advancePastFeed } from './changes/advance.ts';
import * as initial from './migrations/2026_11_22_000000_initial.ts';
import * as search from './migrations/2026_11_23_000100_search.ts';
import * as queue from './migrations/2026_11_23_000200_queue.ts';
import * as changes from './migrations/2026_11_23_000300_changes.ts';
import * as counts from './migrations/2026_11_24_000400_counts.ts';
import * as tagSearch from './migrations/2026_11_24_000500_tag_search.ts';
import * as urlKeys from './migrations/2026_11_25_000700_url_keys.ts';
import * as merges from './migrations/2026_11_25_000710_merges.ts';
import * as readModel from './migrations/2026_11_25_000720_read_model.ts';
import * as history from './migrations/2026_11_25_000800_history.ts';
import * as writePath from './migrations/2026_11_26_000900_write_path.ts';
import * as curation from './migrations/2026_11_26_000950_curation.ts';
import * as apiKeys from './migrations/2026_11_26_000960_api_keys.ts';
import * as linksIndex from './migrations/2026_11_26_000970_links_index.ts';
import * as mergeRevisions from './migrations/2026_11_27_000980_merge_revisions.ts';
import * as databaseInstance from './migrations/2026_11_28_001000_database_instance.ts';
import * as keyLineage from './migrations/2026_11_28_001010_key_lineage.ts';
import * as tagCuration from './migrations/2026_11_28_001100_tag_curation.ts';
import * as revisionSummaries from './migrations/2026_11_28_001110_revision_summaries.ts';
import * as revisionWarnings from './migrations/2026_11_28_001120_revision_warnings.ts';
import * as webhookSecretRotation from './migrations/2026_11_28_001130_webhook_secret_rotation.ts';
import * as webhookDeliveryDetails from './migrations/2026_11_28_001140_webhook_delivery_details.ts';
import * as projectSignals from './migrations/2026_11_28_001200_project_signals.ts';
import * as webhookOwners from './migrations/2026_11_28_001210_webhook_owners.ts';
import * as searchPins from './migrations/2026_11_28_001220_search_pins.ts';
import * as feedCluster from './migrations/2026_11_28_001300_feed_cluster.ts';
import * as exportScope from './migrations/2026_11_29_001400_export_scope.ts';
import * as restores from './migrations/2026_11_29_001410_restores.ts';
import * as tagMerges from './migrations/2026_11_29_001500_tag_merges.ts';
import type { Database } from './tables.ts';

/** Migrations are listed here (not read from disk) so they work the same from source and bundles. */
const migrations: Record<string, Migration> = {
  '2026_11_22_000000_initial': initial,
  '2026_11_23_000100_search': search,
  '2026_11_23_000200_queue': queue,
  '2026_11_23_000300_changes': changes,
  '2026_11_24_000400_counts': counts,
  '2026_11_24_000500_tag_search': tagSearch,
  '2026_11_25_000700_url_keys': urlKeys,
  '2026_11_25_000710_merges': merges,
  '2026_11_25_000720_read_model': readModel,
  '2026_11_25_000800_history': history,
  '2026_11_26_000900_write_path': writePath,
  '2026_11_26_000950_curation': curation,
  '2026_11_26_000960_api_keys': apiKeys,
  '2026_11_26_000970_links_index': linksIndex,
  '2026_11_27_000980_merge_revisions': mergeRevisions,
  '2026_11_28_001000_database_instance': databaseInstance,
  '2026_11_28_001010_key_lineage': keyLineage,
  '2026_11_28_001100_tag_curation': tagCuration,
  '2026_11_28_001110_revision_summaries': revisionSummaries,
  '2026_11_28_001120_revision_warnings': revisionWarnings,
  '2026_11_28_001130_webhook_secret_rotation': webhookSecretRotation,
  '2026_11_28_001140_webhook_delivery_details': webhookDeliveryDetails,
  '2026_11_28_001200_project_signals': projectSignals,
  '2026_11_28_001210_webhook_owners': webhookOwners,
  '2026_11_28_001220_search_pins': searchPins,
  '2026_11_28_001300_feed_cluster': feedCluster,
  '2026_11_29_001400_export_scope': exportScope,
  '2026_11_29_001410_restores': restores,
  '2026_11_29_001500_tag_merges': tagMerges,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// Any fixed number: it names the lock that serialises migrations across processes.
const MIGRATION_LOCK = 727_274_001;

/**
 * Brings the schema up to date; returns the names of the migrations it applied. Several server processes may start at once against one
 * PostgreSQL: a session advisory lock on one connection lets exactly one of them migrate
 * (Kysely's own lock is taken only after it has created its bookkeeping tables, which races).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  /**
   * Core's URL key function, for the backfill of rows written before URL keys existed
   * (backfill/url-keys.ts). The server and `pnpm db:migrate` pass it; a fresh database has
   * nothing to backfill.
   */
  options: { urlKey?: (url: string) => string } = {},
): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      const { error, results } = await new Migrator({ db: conn, provider }).migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
      }
      if (options.urlKey) await backfillUrlKeys(conn, options.urlKey);
      // After a restore into a new cluster, new feed positions must order after the old ones.
      await advancePastFeed(conn);
      // the ones this call applied (none when another process had, or nothing was new)
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}
