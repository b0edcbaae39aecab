import type { QueuePosition, TaskStatus } from '@directory/db';
import { AppError } from '../errors.ts';

// Endpoint 5's cursor: base64url of JSON {s: the status filter or null, t: the last task's
// created_at as the database printed it (microseconds), i: its id}. Carrying the filter lets
// a cursor used with another status be refused instead of silently paging another list.

export function encodeTaskCursor(status: TaskStatus | undefined, position: QueuePosition): string {
  return Buffer.from(JSON.stringify({ s: status ?? null, t: position.createdAt, i: position.id })).toString(
    'base64url',
  );
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

const invalid = (why: string) => new AppError('VALIDATION', [`cursor: ${why}`]);

export function decodeTaskCursor(cursor: string, status: TaskStatus | undefined): QueuePosition {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('Malformed cursor; pass back the nextCursor of a previous page unchanged');
  }
  const v = value as { s?: unknown; t?: unknown; i?: unknown } | null;
  if (
    v === null ||
    typeof v !== 'object' ||
    typeof v.t !== 'string' ||
    !TIMESTAMP.test(v.t) ||
    Number.isNaN(Date.parse(v.t.replace(' ', 'T'))) ||
    typeof v.i !== 'string' ||
    v.i.length === 0 ||
    v.i.length > 200 ||
    (v.s !== null && typeof v.s !== 'string')
  ) {
    throw invalid('Malformed cursor; pass back the nextCursor of a previous page unchanged');
  }
  if ((v.s ?? undefined) !== status) {
    throw invalid('The cursor was made for another query (a different status filter)');
  }
  return { createdAt: v.t, id: v.i };
}
