import { reapExpiredTasks } from '@directory/core/server';
import { connect } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets } from './helpers.ts';
import { REAP, useQueue } from './queue-helpers.ts';

/**
 * The task queue through the API on PGlite and PostgreSQL: the reaper of expired leases with its
 * backoff, racing a completion and another reaper (docs/workers.md#what-happens-on-a-crash), and
 * endpoint 5 (the task list) by cursor. Claims, leases and fencing are in queue.test.ts.
 */

describe.each(targets)('the task queue on $name', (target) => {
  const { s, sql, drain, newTasks, claim, post, task, expire } = useQueue(target);

  it('the reaper requeues an expired lease with a backoff, and fails it once attempts run out', async () => {
    await drain();
    const [id] = await newTasks(1);
    for (let attempt = 1; attempt <= REAP.maxAttempts; attempt++) {
      const [t] = await claim({});
      expect(t).toMatchObject({ id, attempt });
      await expire([id!]);
      const before = Date.now();
      const reaped = await reapExpiredTasks(s.db.db, REAP);
      expect(reaped).toMatchObject({ ran: true });
      const after = await task(id!);
      if (attempt < REAP.maxAttempts) {
        expect(reaped.requeued).toBe(1);
        expect(after).toMatchObject({
          status: 'PENDING',
          retryCount: attempt,
          errorMessage: 'Lease expired',
          leaseExpiresAt: null,
        });
        // base 30 s · 2^(attempt-1), half of it fixed, half jitter
        const delay = Date.parse(after.availableAt) - before;
        const full = 30_000 * 2 ** (attempt - 1);
        expect(delay).toBeGreaterThanOrEqual(full / 2 - 1_000);
        expect(delay).toBeLessThanOrEqual(full + 1_000);
        // backoff respected: not claimable until then
        expect(await claim({})).toEqual([]);
        await sql(`update discovery_tasks set available_at = now() - interval '1 second' where id = $1`, [
          id,
        ]);
      } else {
        expect(reaped.failed).toBe(1);
        expect(after).toMatchObject({
          status: 'FAILED',
          errorMessage: 'Lease expired; attempts exhausted',
          retryCount: REAP.maxAttempts - 1,
          leaseExpiresAt: null,
        });
        expect(after.completedAt).not.toBeNull();
      }
    }
    const stats = (await s.call('GET', '/api/discovery/stats')).json;
    expect(stats.reapedTotal).toBeGreaterThanOrEqual(REAP.maxAttempts);
  });

  it('a completion racing the reaper at the lease edge: completed or reaped, never both', async () => {
    await drain();
    const rounds = 30;
    const ids = await newTasks(rounds);
    const outcomes = { completed: 0, reaped: 0 };
    for (const id of ids) {
      const [t] = await claim({});
      expect(t!.id).toBe(id);
      // the lease ends a few milliseconds from now; the completion and the reaper go at the edge
      await sql(
        `update discovery_tasks set lease_expires_at = now() + interval '15 milliseconds' where id = $1`,
        [id],
      );
      const p = project();
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      const [done, reaped] = await Promise.all([
        post(id, 'complete', { explorationData: p, leaseToken: t!.leaseToken }),
        reapExpiredTasks(s.db.db, REAP),
      ]);
      // a completion refused just after the edge may have met a reaper that ran just before it:
      // the next pass reaps it
      await new Promise((r) => setTimeout(r, 20));
      const late = await reapExpiredTasks(s.db.db, REAP);
      const after = await task(id);
      const stored = await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false });
      if (done.status === 200) {
        outcomes.completed++;
        expect(after).toMatchObject({ status: 'COMPLETED', retryCount: 0, projectId: done.json.projectId });
        expect(reaped.requeued + late.requeued).toBe(0);
        expect(stored.status).toBe(200);
      } else {
        outcomes.reaped++;
        expect(done.status, done.text).toBe(409);
        expect(reaped.requeued + late.requeued).toBe(1);
        expect(after).toMatchObject({ status: 'PENDING', retryCount: 1, projectId: null });
        expect(stored.status).toBe(404);
      }
    }
    expect(outcomes.completed + outcomes.reaped).toBe(rounds);
    // never a project without a COMPLETED task
    const orphans = await sql(
      `select count(*)::int as n from discovery_tasks where project_id is not null and status <> 'COMPLETED'`,
    );
    expect(orphans[0].n).toBe(0);
  });

  it('two reapers at once never both reap one task', async () => {
    await drain();
    const ids = await newTasks(40);
    await claim({ limit: 40 });
    await expire(ids);
    // on PostgreSQL a second pool is a second set of sessions; PGlite has one session
    const other = target.postgres ? await connect(s.databaseUrl, { poolSize: 2 }) : undefined;
    try {
      const results = await Promise.all([
        reapExpiredTasks(s.db.db, REAP),
        reapExpiredTasks((other ?? s.db).db, REAP),
        reapExpiredTasks(s.db.db, REAP),
      ]);
      expect(results.reduce((n, r) => n + r.requeued, 0)).toBe(40);
      const rows = await sql('select retry_count from discovery_tasks where id = any($1)', [ids]);
      expect(rows.every((r) => r.retry_count === 1)).toBe(true);
    } finally {
      await other?.close();
    }
  });

  describe('endpoint 5 by cursor', () => {
    const page = (q: string) => s.call('GET', `/api/discovery/tasks?${q}`);

    it('walks every task once in queue order while tasks are being added', async () => {
      const before = await newTasks(45);
      const seen: string[] = [];
      let cursor: string | null = null;
      let adding = 0;
      for (;;) {
        const r: Awaited<ReturnType<typeof page>> = await page(`limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.status, r.text).toBe(200);
        seen.push(...r.json.tasks.map((t: { id: string }) => t.id));
        // inserts between pages, at the end of the queue
        if (adding++ < 4) await newTasks(3);
        cursor = r.json.nextCursor;
        expect(r.json.hasMore).toBe(cursor !== null);
        if (!cursor) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      const all = await sql('select id from discovery_tasks order by created_at, id');
      expect(seen).toEqual(all.map((r) => r.id));
      for (const id of before) expect(seen).toContain(id);
    });

    it('by status, and the total of every page is exact', async () => {
      const r1 = await page('status=PENDING&limit=2');
      const [{ n }] = await sql(`select count(*)::int as n from discovery_tasks where status = 'PENDING'`);
      expect(r1.json.total).toBe(n);
      if (r1.json.nextCursor) {
        const r2 = await page(`status=PENDING&limit=2&cursor=${r1.json.nextCursor}`);
        expect(r2.json.total).toBe(n);
        expect(r2.json.tasks.every((t: { status: string }) => t.status === 'PENDING')).toBe(true);
        // the cursor of another query
        const other = await page(`status=COMPLETED&cursor=${r1.json.nextCursor}`);
        expect(other.status).toBe(400);
        expect(other.json.details[0]).toMatch(/^cursor: /);
        expect((await page(`cursor=${r1.json.nextCursor}`)).status).toBe(400);
        expect((await page(`status=PENDING&offset=2&cursor=${r1.json.nextCursor}`)).status).toBe(400);
      }
    });

    it('refuses malformed and forged cursors with 400, never 500', async () => {
      const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      for (const cursor of [
        '!!',
        'abc',
        forged({ s: null, t: 'yesterday', i: 'x' }),
        forged({ s: null, t: '2026-11-23T08:00:00Z' }),
        forged({ s: null, t: '2026-13-45T08:00:00Z', i: 'x' }),
        forged([1, 2]),
        forged(null),
        'x'.repeat(1001),
      ]) {
        const r = await page(`cursor=${encodeURIComponent(cursor)}`);
        expect(r.status, cursor).toBe(400);
        expect(r.json.details[0]).toMatch(/^cursor: /);
      }
    });

    it('keeps total exact under concurrent writers', async () => {
      const ids = await newTasks(60);
      await Promise.all([
        ...Array.from({ length: 4 }, () => claim({ limit: 5 })),
        ...Array.from({ length: 4 }, () => newTasks(10)),
        ...ids
          .slice(40)
          .map((id) => s.call('PATCH', `/api/discovery/tasks/${id}`, { body: { status: 'IN_PROGRESS' } })),
      ]);
      const counts = await sql('select status, count(*)::int as n from discovery_tasks group by status');
      let sum = 0;
      for (const { status, n } of counts) {
        sum += n;
        expect((await page(`status=${status}&limit=1`)).json.total, status).toBe(n);
      }
      expect((await page('limit=1')).json.total).toBe(sum);
    });
  });
});
