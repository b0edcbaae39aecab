import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { project, slugOf, spawnServer, targets, uniqueUrl, useServer } from './helpers.ts';

describe.each(targets)('the change feed on $name', (target) => {
  const s = useServer(target);

  const feed = (query = '') => s.call('GET', `/api/changes${query}`);
  /** Every change after `after`, page by page. */
  async function readAll(after?: string, limit = 7) {
    const changes: any[] = [];
    let cursor = after;
    for (;;) {
      const page = await feed(`?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      changes.push(...page.json.changes);
      cursor = page.json.nextCursor;
      if (!page.json.hasMore) return { changes, cursor };
    }
  }

  it('records every kind of write, in order, and pages by cursor', async () => {
    const start = (await readAll()).cursor;
    const p = project();
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } })).status).toBe(200);
    const updated = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...p, description: 'A changed description of this project.' }] },
    });
    expect(updated.json).toMatchObject({ success: true });
    const url = uniqueUrl('feed');
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    const { rows } = await s.db.pool.query('select id from discovery_tasks where source_url = $1', [url]);
    const taskId = rows[0].id;
    await s.call('PATCH', `/api/discovery/tasks/${taskId}`, { body: { status: 'IN_PROGRESS' } });
    await s.call('DELETE', `/api/projects/${slugOf(p)}`);
    const { changes } = await readAll(start, 2);
    expect(changes.map((c) => [c.type, c.slug ?? c.taskId])).toEqual([
      ['project.created', slugOf(p)],
      ['project.updated', slugOf(p)],
      ['task.created', taskId],
      ['task.updated', taskId],
      ['project.deleted', slugOf(p)],
    ]);
    for (const c of changes) {
      expect(Object.keys(c).sort()).toEqual(['at', 'cursor', 'projectId', 'slug', 'taskId', 'type']);
      expect(c.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // The cursor of a change resumes right after it.
    const after2 = await readAll(changes[1].cursor);
    expect(after2.changes.map((c) => c.type)).toEqual(['task.created', 'task.updated', 'project.deleted']);
  });

  it('leaves no change for a refused or rolled-back write', async () => {
    const { cursor } = await readAll();
    const bad = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [project(), { name: '' }] },
    });
    expect(bad.status).toBe(400);
    await s.db.pool.query('begin');
    await s.db.pool.query(
      "insert into projects (id, name, slug, description) values ('rolled-back', 'x', 'rolled-back', 'x')",
    );
    await s.db.pool.query('rollback');
    expect((await readAll(cursor)).changes).toEqual([]);
  });

  it('long-polls: a waiting read answers as soon as a change commits', async () => {
    const { cursor } = await readAll();
    const started = Date.now();
    const waiting = feed(`?after=${cursor}&wait=10`);
    await new Promise((r) => setTimeout(r, 200));
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: uniqueUrl('poll') }] } });
    const page = await waiting;
    expect(page.json.changes.map((c: any) => c.type)).toEqual(['task.created']);
    expect(Date.now() - started).toBeLessThan(3_000);
    // Nothing new: an empty page after `wait`, with the cursor unchanged.
    const empty = await feed(`?after=${page.json.nextCursor}&wait=1`);
    expect(empty.json).toEqual({
      success: true,
      changes: [],
      nextCursor: page.json.nextCursor,
      hasMore: false,
    });
  });

  it('refuses malformed cursors and bad limits with 400, and wants the key', async () => {
    for (const q of [
      '?after=nope',
      '?after=YzEuMS4y%3D',
      `?after=${Buffer.from('c1.1.99999999999999999999').toString('base64url')}`,
      '?limit=0',
      '?limit=1001',
      '?wait=31',
      '?wait=1.5',
    ]) {
      const r = await feed(q);
      expect(r.status, q).toBe(400);
      expect(r.json.error).toBe('Validation error');
    }
    expect((await feed('?after=nope')).json.details[0]).toMatch(/^cursor: /);
    expect((await s.call('GET', '/api/changes', { key: false })).status).toBe(401);
  });

  it('answers 410 Gone, not an empty page, for a cursor this feed never gave out', async () => {
    const { cursor } = await readAll();
    for (const pos of ['c1.18446744073709551615.9223372036854775807', 'c1.3.424242424242']) {
      const r = await feed(`?after=${Buffer.from(pos).toString('base64url')}`);
      expect(r.status, pos).toBe(410);
      expect(r.json).toEqual({
        success: false,
        error: 'Gone',
        details: [expect.stringMatching(/^cursor: .*from the beginning, without `after`$/)],
      });
    }
    expect((await feed(`?after=${cursor}`)).status).toBe(200);
  });

  it('answers 410 Gone for a cursor before the retention mark', async () => {
    const first = (await feed('?limit=1')).json.changes[0];
    const { changes } = await readAll();
    await s.db.pool.query(
      `update changes set at = now() - interval '40 days' where id <= (select min(id) + 1 from changes)`,
    );
    await s.db.pool.query(`select 1`);
    const { pruneChanges } = await import('@directory/db');
    expect(await pruneChanges(s.db.db, 30)).toBe(2);
    const gone = await feed(`?after=${first.cursor}`);
    expect(gone.status).toBe(410);
    expect(gone.json.error).toBe('Gone');
    // The last change removed is still a valid place to continue from.
    expect((await feed(`?after=${changes[1].cursor}`)).status).toBe(200);
    expect((await feed('')).json.changes[0].cursor).toBe(changes[2].cursor);
  });
});

describe('shutting down with long-polls waiting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'changes-stop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers waiting long-polls and exits promptly on SIGTERM', async () => {
    const s = await spawnServer({ DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: 'stop-key' });
    try {
      const polls = [1, 2, 3].map(() => s.call('GET', '/api/changes?wait=30'));
      await new Promise((r) => setTimeout(r, 500));
      const started = Date.now();
      const code = await s.stop('SIGTERM');
      const replies = await Promise.all(polls);
      expect(code).toBe(0);
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await s.stop('SIGKILL');
    }
  }, 60_000);
});
