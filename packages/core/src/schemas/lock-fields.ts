/**
 * The fields a lock can keep (docs/curation.md#history-revert-locks-and-restore), in this order wherever
 * they are listed. No imports: the console and the SDK's CLI take it as `@directory/core/lock-fields`
 * without server code.
 */
export const LOCK_FIELDS = [
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'content',
  'contentEn',
  'status',
  'tags',
  'links',
] as const;
export type LockFieldName = (typeof LOCK_FIELDS)[number];
