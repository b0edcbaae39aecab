import type { ChangeRecord } from '@directory/db';
import { z } from 'zod';
import { encodeCursor, feedCursor } from '../domain/cursor.ts';
import { iso, timestamp } from '../schemas/common.ts';

export const CHANGE_TYPES = [
  'project.created',
  'project.updated',
  'project.deleted',
  'project.merged',
  'task.created',
  'task.updated',
  'tag.updated',
] as const;
export const ChangeType = z.enum(CHANGE_TYPES);

/**
 * What the change feed needs from the process it runs in. Transports pass one; without it a
 * long-poll falls back to re-reading every 100 ms.
 */
export interface FeedServices {
  /** Counts notifications that changes committed; read it before reading the feed. */
  readonly version: number;
  /**
   * Resolves at once when `version` is no longer `since` (a change committed after the caller
   * read it) or the server is stopping; else at the next notification, or after `ms`. Holds no
   * database connection.
   */
  waitForChange(ms: number, since: number): Promise<void>;
  /** True once the server is stopping: long-polls answer at once. */
  readonly stopping: boolean;
}

export const pollingFeed: FeedServices = {
  version: 0,
  waitForChange: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 100))),
  stopping: false,
};

export const Change = z.object({
  cursor: z.string().meta({ description: 'Pass as `after` to read the changes after this one' }),
  type: ChangeType,
  at: timestamp,
  projectId: z.string().nullable(),
  slug: z.string().nullable(),
  taskId: z.string().nullable(),
  intoProjectId: z
    .string()
    .optional()
    .meta({ description: 'project.merged only: the id of the project it was merged into' }),
  intoSlug: z
    .string()
    .optional()
    .meta({ description: 'project.merged only: the slug of the project it was merged into' }),
  tagId: z.string().optional().meta({
    description: 'tag.updated only (a tag renamed or merged; `slug` is its slug): the id of the tag',
  }),
});
export type Change = z.infer<typeof Change>;

export function toChange(c: ChangeRecord): Change {
  return {
    cursor: encodeCursor(feedCursor, c),
    type: c.type,
    at: iso(c.at),
    projectId: c.projectId,
    slug: c.slug,
    taskId: c.taskId,
    ...(c.type === 'project.merged' && { intoProjectId: c.intoProjectId ?? '', intoSlug: c.intoSlug ?? '' }),
    ...(c.type === 'tag.updated' && { tagId: c.tagId ?? '' }),
  };
}
