/**
 * Every table the migrations leave, and what a move (docs/operating.md#moving-to-postgresql) does
 * with it. A move refuses a source holding a table named in neither list (`unknownTables`), so a
 * migration that adds a table must add it here too; `packages/db/test/move-tables.test.ts` checks
 * both lists against information_schema after the migrations.
 */
export interface MovedTable {
  name: string;
  /**
   * The rows a fresh migration writes (a singleton, a zero total), as a condition: such a row in the
   * target is not data, so it does not make the target "not empty"; the move replaces it.
   */
  fresh?: string;
  /**
   * A foreign key to itself (tags.alias_of): copied in one statement, so that a row may name a row
   * copied after it (a key is checked at the end of its statement).
   */
  selfReference?: boolean;
}

/** Copied, in this order: a table after every table its foreign keys name. */
export const MOVED_TABLES: readonly MovedTable[] = [
  { name: 'projects' },
  { name: 'tags', selfReference: true },
  { name: 'project_tags' },
  { name: 'links' },
  { name: 'project_aliases' },
  { name: 'project_revisions' },
  // what undoing a tag merge needs (docs/curation.md#undoing-a-merge)
  { name: 'tag_merges' },
  { name: 'tag_merge_projects' },
  { name: 'duplicate_dismissals' },
  { name: 'discovery_tasks' },
  { name: 'discovery_task_counts', fresh: 'n = 0' },
  { name: 'queue_totals', fresh: 'value = 0' },
  { name: 'api_keys' },
  { name: 'webhooks' },
  { name: 'changes' },
  { name: 'webhook_deliveries' },
  { name: 'webhook_attempts' },
  { name: 'change_feed_state', fresh: "pruned_id = 0 and pruned_xid = '0'" },
  { name: 'search_synonyms', fresh: "sets = '[]'::jsonb" },
  { name: 'search_pins', fresh: "pins = '[]'::jsonb" },
  { name: 'server_secrets' },
  { name: 'rate_limits' },
  // whether and how far this directory was restored from an export (docs/operating.md#restore-from-an-export)
  { name: 'restores' },
];

/** Not copied, and why. */
export const KEPT_TABLES: Readonly<Record<string, string>> = {
  kysely_migration: 'the target is migrated by this code; the move checks both list the same migrations',
  kysely_migration_lock: "Kysely's lock row, made by its migrator",
  database_instance:
    "the target keeps the id its migration made: it is another database, and the read model's snapshot of the old one is not loaded into it (docs/operating.md#moving-to-postgresql)",
};

/** Tables of a database that neither list names (a migration the mover does not know of). */
export function unknownTables(present: readonly string[]): string[] {
  const known = new Set([...MOVED_TABLES.map((t) => t.name), ...Object.keys(KEPT_TABLES)]);
  return present.filter((t) => !known.has(t)).sort();
}
