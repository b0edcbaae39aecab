import type { Database, Kysely, ReadRouting } from '@directory/db';
import type { FeedServices } from '../changes/feed.ts';
import type { SnapshotSettings } from './snapshots.ts';

/* What a read model is made with, and what it tells /metrics (read-model.ts). */

export interface ReadModelOptions {
  /** The primary. */
  db: Kysely<Database>;
  /** Where the model builds, follows and reads details (standbys); absent: `db`. */
  reads?: ReadRouting | undefined;
  feed?: FeedServices | undefined;
  /** The detail cache's budget (READ_CACHE_MB). */
  cacheBytes?: number;
  /** Warnings of the follower (a failed read: it retries). */
  warn?: (message: string, err: unknown) => void;
  /** Where and how often the model keeps its snapshot (READ_MODEL_SNAPSHOT_DIR); none: never. */
  snapshots?: SnapshotSettings | undefined;
}

export interface ReadModelStats {
  ready: boolean;
  projects: number;
  tags: number;
  indexBytes: number;
  cacheProjects: number;
  cacheBytes: number;
  buildSeconds: number;
  /** Where the model was made ready from: the database (a build) or its snapshot on disk. */
  readyFrom: 'database' | 'snapshot';
  /** The horizon as a number (the feed's xid), and the feed's newest xid seen. */
  position: number;
  /** Seconds since the model last knew it was up to date with the feed (0 when it is). */
  lagSeconds: number;
  applied: number;
  /** Projects whose applied change id is remembered (versions.ts). */
  versions: number;
}
