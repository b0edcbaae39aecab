import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

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
