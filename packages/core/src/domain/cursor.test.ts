import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import {
  decodeCursor,
  duplicatesCursor,
  encodeCursor,
  feedCursor,
  feedPositionToken,
  pageCursor,
  taskCursor,
} from './cursor.ts';

const scope = { secret: 'key-1', query: { q: '模型', sort: 'relevance' } };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).details[0] ?? '';
  }
  throw new Error('expected a refusal');
}

describe('cursors', () => {
  it('round-trips every kind, dots, percent signs and non-ASCII included', () => {
    const page = { key: 'Qwen2.5 % 通义.千问', id: 'p.1', asOf: '1764081234567.125' };
    expect(decodeCursor(pageCursor, encodeCursor(pageCursor, page, scope), scope)).toEqual(page);
    const scored = { key: 0.125, id: 'x' };
    expect(decodeCursor(pageCursor, encodeCursor(pageCursor, scored, scope), scope)).toEqual({
      ...scored,
      asOf: undefined,
    });
    const task = { createdAt: '2026-11-23 08:00:00.123456+00:00', id: 'tsk_1' };
    expect(decodeCursor(taskCursor, encodeCursor(taskCursor, task, { query: 1 }), { query: 1 })).toEqual(
      task,
    );
    const dup = { reason: 'link' as const, key: 'github.com/qwenlm/qwen2.5' };
    expect(decodeCursor(duplicatesCursor, encodeCursor(duplicatesCursor, dup))).toEqual(dup);
  });

  it('writes the change feed cursor as base64url of c1.<xid>.<id>', () => {
    const cursor = encodeCursor(feedCursor, { xid: '812', id: '4051' });
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).toBe('c1.812.4051');
    expect(decodeCursor(feedCursor, cursor)).toEqual({ xid: '812', id: '4051' });
  });

  it('writes X-Directory-Position as base64url of p1.<horizon>, refused as minPosition', () => {
    const token = encodeCursor(feedPositionToken, 18446744073709551615n);
    expect(Buffer.from(token, 'base64url').toString('latin1')).toBe('p1.18446744073709551615');
    expect(decodeCursor(feedPositionToken, token)).toBe(18446744073709551615n);
    for (const bad of [
      'p1.1',
      Buffer.from('p1.x').toString('base64url'),
      Buffer.from('c1.1.2').toString('base64url'),
    ])
      expect(
        refusal(() => decodeCursor(feedPositionToken, bad)),
        bad,
      ).toBe('minPosition: Invalid position; pass back an X-Directory-Position header value');
  });

  it('is URL-safe', () => {
    const cursor = encodeCursor(pageCursor, { key: 'a/b?c=d&e', id: '+' }, scope);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('refuses a cursor of another query, naming it', () => {
    const cursor = encodeCursor(pageCursor, { key: 1, id: 'a' }, scope);
    expect(refusal(() => decodeCursor(pageCursor, cursor, { ...scope, query: { q: '向量' } }))).toMatch(
      /^cursor: Belongs to another query/,
    );
    const task = encodeCursor(
      taskCursor,
      { createdAt: '2026-11-23T08:00:00Z', id: 't' },
      { query: 'PENDING' },
    );
    expect(refusal(() => decodeCursor(taskCursor, task, { query: 'FAILED' }))).toMatch(/another query/);
  });

  it('refuses a signed cursor with a changed byte, or made under another key', () => {
    const cursor = encodeCursor(pageCursor, { key: 1, id: 'a' }, scope);
    const [body, mac] = cursor.split('.') as [string, string];
    const flipped = `${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect(refusal(() => decodeCursor(pageCursor, flipped, scope))).toMatch(/^cursor: Invalid cursor/);
    expect(refusal(() => decodeCursor(pageCursor, cursor, { ...scope, secret: 'key-2' }))).toMatch(
      /^cursor: Invalid cursor/,
    );
    // the body re-signed is not enough: the MAC covers it
    const forged = Buffer.from('s3.x.n1.a.').toString('base64url');
    expect(refusal(() => decodeCursor(pageCursor, `${forged}.${mac}`, scope))).toMatch(/^cursor: /);
  });

  it('refuses malformed cursors of every kind with a 400 detail, never a throw of another type', () => {
    const b = (text: string) => Buffer.from(text).toString('base64url');
    const cases: [Parameters<typeof decodeCursor>[0], string][] = [
      [feedCursor, 'nope'],
      [feedCursor, b('c1.1')],
      [feedCursor, b('c1.1.99999999999999999999')],
      [feedCursor, b('c1.18446744073709551616.1')],
      [feedCursor, `${b('c1.1.2')}.x`],
      [taskCursor, b('t2.yesterday.x')],
      [taskCursor, b('t2.2026-13-45T08:00:00Z.x')],
      [taskCursor, b(`t2.2026-11-23T08:00:00Z.${'x'.repeat(201)}`)],
      [taskCursor, '!!'],
      [taskCursor, 'x'.repeat(1001)],
      [duplicatesCursor, b('d2.other.k')],
      [duplicatesCursor, b('d2.link.')],
      [duplicatesCursor, b('d2.link.%E0%A4%A')],
      [duplicatesCursor, b('d1.link.k')],
      [pageCursor, 'abc'],
    ];
    for (const [kind, cursor] of cases) {
      expect(
        refusal(() => decodeCursor(kind, cursor, kind === pageCursor ? scope : {})),
        cursor,
      ).toMatch(/^cursor: /);
    }
  });
});
