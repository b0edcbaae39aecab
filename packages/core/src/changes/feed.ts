import type { ChangeRecord, FeedPosition } from '@directory/db';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { iso, timestamp } from '../schemas/common.ts';

export const CHANGE_TYPES = [
  'project.created',
  'project.updated',
  'project.deleted',
  'project.merged',
  'task.created',
  'task.updated',
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
  /** WEBHOOK_ALLOW_PRIVATE: webhooks may target loopback and private addresses. */
  allowPrivateTargets: boolean;
}

export const pollingFeed: FeedServices = {
  version: 0,
  waitForChange: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 100))),
  stopping: false,
  allowPrivateTargets: false,
};

// Cursors are "c1.<xid>.<id>" in base64url: opaque to clients, versioned for us.
const CURSOR = /^c1\.(\d{1,20})\.(\d{1,19})$/;

export function encodeCursor(p: FeedPosition): string {
  return Buffer.from(`c1.${p.xid}.${p.id}`).toString('base64url');
}

/** The position a cursor names, or a 400 `cursor: …`. */
export function decodeCursor(cursor: string): FeedPosition {
  const m = /^[A-Za-z0-9_-]{1,80}$/.test(cursor)
    ? CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'))
    : null;
  // xid8 and bigint are 64-bit: larger digits would make the database refuse the cast (a 500).
  if (!m?.[1] || !m[2] || BigInt(m[1]) > 2n ** 64n - 1n || BigInt(m[2]) > 2n ** 63n - 1n) {
    throw new AppError('VALIDATION', [
      'cursor: Invalid cursor; pass back a cursor returned by this endpoint',
    ]);
  }
  return { xid: m[1], id: m[2] };
}

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
});
export type Change = z.infer<typeof Change>;

export function toChange(c: ChangeRecord): Change {
  return {
    cursor: encodeCursor(c),
    type: c.type,
    at: iso(c.at),
    projectId: c.projectId,
    slug: c.slug,
    taskId: c.taskId,
    ...(c.type === 'project.merged' && { intoProjectId: c.intoProjectId ?? '', intoSlug: c.intoSlug ?? '' }),
  };
}
