import type { Generated } from 'kysely';

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

/** One row (singleton): the last change removed by retention (migration 2026_11_23_000300_changes). */
export interface ChangeFeedStateTable {
  singleton: Generated<boolean>;
  pruned_xid: Generated<string>;
  pruned_id: Generated<string>;
  /** The cluster the feed was last written on (migration 2026_11_28_001300_feed_cluster). */
  cluster: string | null;
}
