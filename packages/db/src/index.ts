export { type Kysely, sql, type Transaction } from 'kysely';
export { backfillSearchColumns, backfillTagSearchText } from './backfill/search-columns.ts';
export { nameSortKey, projectSearchColumns, searchQuery } from './backfill/search-terms.ts';
export { backfillUrlKeys } from './backfill/url-keys.ts';
export { advancePastFeed } from './changes/advance.ts';
export { pruneChanges } from './changes/prune.ts';
export {
  CHANGES_CHANNEL,
  type ChangeRecord,
  type FeedPosition,
  isFeedPosition,
  oldestUndeliveredAge,
  readChanges,
} from './changes/read.ts';
export { databaseIdentity } from './cluster.ts';
export {
  type ConnectOptions,
  connect,
  type DatabaseHandle,
  DEFAULT_DATABASE_URL,
  hasOneConnection,
  parseDatabaseUrl,
  redact,
} from './connect.ts';
export { isDatabaseUnavailable } from './errors.ts';
export {
  beginSnapshot,
  countExport,
  type ExportFilter,
  exportAliases,
  exportIds,
  readSnapshotFacts,
  type SnapshotFacts,
  tagIdsOfSlugs,
} from './export/read.ts';
export {
  findDeletedIdBySlug,
  findLatestRevision,
  findRevision,
  findRevisions,
  listDeletedProjects,
  type RevisionRow,
  type RevisionSummaryRow,
} from './history/read.ts';
export { insertRevisions, type NewRevision, pruneRevisions } from './history/write.ts';
export {
  endKey,
  ensureAdminKey,
  findKeyByHash,
  findKeyById,
  insertKey,
  type KeyRow,
  listKeys,
  type NewKey,
  sharedSecret,
  touchKeys,
} from './keys/keys.ts';
export { lockKeys } from './locks.ts';
export { migrateToLatest } from './migrate.ts';
export { type MoveOptions, moveDatabase } from './move/move.ts';
export { MoveRefused, type MoveReport } from './move/report.ts';
export { KEPT_TABLES, MOVED_TABLES, unknownTables } from './move/tables.ts';
export { findAliasTarget, findMergeTarget, findSlugHolder } from './projects/aliases.ts';
export {
  findLinkKeyOwners,
  findProjectKeyMatches,
  findProjectSlugByUrlKey,
  findUrlMatches,
  type ProjectKeyMatches,
} from './projects/by-url-key.ts';
export { diffLinksAndTags, type LinksAndTags, type LinksAndTagsDiff, type NewLink } from './projects/diff.ts';
export { deleteDismissals, insertDismissals, listDismissals } from './projects/dismissals.ts';
export {
  type DuplicateProjectRow,
  findLinkDuplicates,
  findNameDuplicates,
} from './projects/duplicate-groups.ts';
export { findProjectsByIdentity, type IdentifiedProject, type IdentityKeys } from './projects/identity.ts';
export { replaceLinksAndTags } from './projects/links-and-tags.ts';
export { findMergeParty, type MergeParty, mergeProjectRows } from './projects/merge.ts';
export {
  findProjectDetailBySlug,
  findProjectDetailsByIds,
  findProjectIdBySlug,
  findProjectIdsBySlugs,
  type LinkDetail,
  type ProjectDetailRow,
  projectDetailStatement,
  type TagDetail,
} from './projects/read.ts';
export {
  deleteProjectBySlug,
  insertProjects,
  type ProjectFields,
  type ProjectWrite,
  updateProjects,
  writeProjectLock,
} from './projects/write.ts';
export { ProjectChangedMeanwhile, type WrittenTimes, writeProjectBatch } from './projects/write-batch.ts';
export { claimQueuedTasks, extendLease, lockTaskWithLease, releaseLease } from './queue/leases.ts';
export { reapExpiredLeases } from './queue/reaper.ts';
export { queueStats } from './queue/stats.ts';
export { type DatabaseInstance, readDatabaseInstance } from './read-model/instance.ts';
export { type Pins, readPins, readPinsVersion, type StoredPin, writePins } from './read-model/pins.ts';
export {
  currentTransactionId,
  currentTransactionWrites,
  type IndexedProjectRow,
  type IndexedTagRow,
  type OwnProjectChange,
  readChangesOfTransactions,
  readIndexedProjects,
  readIndexedTags,
  readModelSnapshot,
  type StandingFacts,
} from './read-model/read.ts';
export { type Snapshot, visibleIn } from './read-model/snapshot.ts';
export { readSynonyms, readSynonymsVersion, writeSynonyms } from './read-model/synonyms.ts';
export {
  advanceRestore,
  type DirectoryContents,
  directoryContents,
  findRestore,
  lockRestore,
  type RestoreRow,
  startRestore,
} from './restore/state.ts';
export {
  findRestoreClashes,
  insertRestoredProjects,
  type RestoreClashes,
  type RestoredProjectRow,
} from './restore/write.ts';
export {
  POLL_MS as READ_POLL_MS,
  primaryOnly,
  type ReadRoute,
  type ReadRouting,
  ReadSources,
  type ReadStatus,
  type StandbyStatus,
} from './standby/read-sources.ts';
export * from './tables.ts';
export {
  aliasSlugsOf,
  findTagById,
  findTagBySlug,
  findTagNamed,
  lockTagVocabulary,
  mergeTag,
  renameTag,
  TAG_VOCABULARY,
  type TagRow,
} from './tags/curate.ts';
export { recordMerge, setMergeRevisions } from './tags/merge-record.ts';
export {
  findTagsByName,
  findTakenTagSlugs,
  lockKeysAndFindTags,
  type StoredTag,
  type TagLookup,
} from './tags/read.ts';
export { findTagMerge, type MovedProject, unmergeTagRows } from './tags/unmerge.ts';
export { fillTagNamesEn, insertTags } from './tags/write.ts';
export { findTaskById, lockTaskById, type QueuePosition, readTaskPage } from './tasks/read.ts';
export { insertTasks, type NewTask, type TaskChange, updateTaskIfStatus } from './tasks/write.ts';
export { type AttemptRecord, findAttemptDetail, recordPing } from './webhooks/attempt-details.ts';
export {
  type ClaimedDelivery,
  claimDeliveries,
  deliveryCounts,
  findAttemptForRedelivery,
  listAttempts,
  recordAttempt,
  recordRedelivery,
} from './webhooks/deliveries.ts';
export { recordAttempts } from './webhooks/record-attempts.ts';
export {
  deleteWebhookById,
  findWebhook,
  findWebhooks,
  insertWebhook,
  rotateWebhookSecret,
  setWebhookEnabled,
  updateWebhookTarget,
  type WebhookView,
  type WebhookViewer,
} from './webhooks/webhooks.ts';
