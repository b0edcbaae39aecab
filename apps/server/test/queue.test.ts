import { reapExpiredTasks } from '@directory/core/server';
import { connect } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

const REAP = { maxAttempts: 3, backoffBaseMs: 30_000, backoffMaxMs: 3_600_000 };

interface Leased {
  id: string;
  leaseToken: string;
  [k: string]: unknown;
}

describe.each(targets)('the task queue on $name', (target) => {
  const s = useServer(target);

  const sql = async (text: string, params: unknown[] = []) => (await s.db.pool.query(text, params)).rows;
  /** Nothing claimable is left over from another test: every open task is finished. */
  const drain = () =>
    sql(`update discovery_tasks set status = 'COMPLETED', completed_at = now(), lease_token = null,
         lease_expires_at = null where status in ('PENDING', 'IN_PROGRESS')`);
  async function newTasks(n: number): Promise<string[]> {
    const urls = Array.from({ length: n }, () => uniqueUrl('queue'));
    for (let i = 0; i < n; i += 50) {
      const chunk = urls.slice(i, i + 50).map((sourceUrl) => ({ sourceUrl }));
      expect((await s.call('POST', '/api/discovery/tasks', { body: { tasks: chunk } })).status).toBe(200);
    }
    const rows = await sql('select id, source_url from discovery_tasks where source_url = any($1)', [urls]);
    const byUrl = new Map(rows.map((r) => [r.source_url, r.id]));
    return urls.map((u) => byUrl.get(u) as string);
  }
  const claim = async (body: Record<string, unknown>) => {
    const r = await s.call('POST', '/api/discovery/tasks/claim', { body });
    expect(r.status, r.text).toBe(200);
    return r.json.tasks as Leased[];
  };
  const post = (id: string, what: string, body: unknown) =>
    s.call('POST', `/api/discovery/tasks/${id}/${what}`, { body });
  const task = async (id: string) =>
    (await s.call('GET', `/api/discovery/tasks/${id}`, { key: false })).json.task;
  const expire = (ids: string[]) =>
    sql(`update discovery_tasks set lease_expires_at = now() - interval '1 second' where id = any($1)`, [
      ids,
    ]);

  it('claims the oldest claimable tasks in queue order with a lease only the claimer sees', async () => {
    await drain();
    const ids = await newTasks(5);
    const got = await claim({ limit: 3, leaseSeconds: 60, worker: 'crawler-1' });
    expect(got.map((t) => t.id)).toEqual(ids.slice(0, 3));
    const first = got[0]!;
    expect(first).toMatchObject({
      status: 'IN_PROGRESS',
      attempt: 1,
      worker: 'crawler-1',
      availableAt: null,
    });
    expect(typeof first.leaseToken).toBe('string');
    const ms = Date.parse(first.leaseExpiresAt as string) - Date.parse(first.startedAt as string);
    expect(ms).toBe(60_000);
    // nobody else sees the token
    expect(JSON.stringify(await task(first.id))).not.toContain(first.leaseToken);
    const listed = await s.call('GET', '/api/discovery/tasks?status=IN_PROGRESS&limit=100');
    expect(listed.text).not.toContain(first.leaseToken);
    expect((await claim({ limit: 50 })).map((t) => t.id)).toEqual(ids.slice(3));
    expect(await claim({})).toEqual([]);
  });

  it('refuses bad claim parameters with 400', async () => {
    for (const body of [
      { limit: 0 },
      { limit: 51 },
      { leaseSeconds: 4 },
      { leaseSeconds: 3601 },
      { wait: 31 },
      { worker: 'x'.repeat(101) },
      { limit: '5' },
    ]) {
      const r = await s.call('POST', '/api/discovery/tasks/claim', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toBe('Validation error');
    }
  });

  it('a waiting claim returns as soon as a task is created, and empty when the wait ends', async () => {
    await drain();
    const started = Date.now();
    expect(await claim({ wait: 1 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const waiting = claim({ wait: 10 });
    await new Promise((r) => setTimeout(r, 300));
    const createdAt = Date.now();
    const [id] = await newTasks(1);
    const got = await waiting;
    expect(got.map((t) => t.id)).toEqual([id]);
    expect(Date.now() - createdAt).toBeLessThan(2_000);
  });

  it('waiting claims hold no database connection', async () => {
    await drain();
    // more waiting claims than the pool has connections (5), and the server still answers
    const waiting = Array.from({ length: 8 }, () => claim({ wait: 3 }));
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    expect((await s.call('GET', '/api/discovery/stats')).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(s.db.pool.totalCount - s.db.pool.idleCount).toBe(0);
    await newTasks(8);
    const got = (await Promise.all(waiting)).flat();
    expect(new Set(got.map((t) => t.id)).size).toBe(8);
  });

  it('heartbeat extends the lease; a wrong or stale token is 409 Lease lost; an unknown task 404', async () => {
    await drain();
    const [id] = await newTasks(1);
    const [t] = await claim({ leaseSeconds: 30 });
    expect(t!.id).toBe(id);
    const beat = await post(id!, 'heartbeat', { leaseToken: t!.leaseToken, leaseSeconds: 600 });
    expect(beat.status).toBe(200);
    expect(Date.parse(beat.json.task.leaseExpiresAt)).toBeGreaterThan(Date.now() + 590_000);
    expect(beat.json.task.leaseToken).toBeUndefined();
    const again = await post(id!, 'heartbeat', { leaseToken: t!.leaseToken });
    // without leaseSeconds, the last one (600) again
    expect(Date.parse(again.json.task.leaseExpiresAt)).toBeGreaterThan(Date.now() + 590_000);
    const wrong = await post(id!, 'heartbeat', { leaseToken: 'not-the-token' });
    expect(wrong.status).toBe(409);
    expect(wrong.json).toMatchObject({ success: false, error: 'Conflict' });
    expect(wrong.json.details[0]).toMatch(/^Lease lost: /);
    expect((await post('no-such-task', 'heartbeat', { leaseToken: t!.leaseToken })).status).toBe(404);
    await expire([id!]);
    const late = await post(id!, 'heartbeat', { leaseToken: t!.leaseToken });
    expect(late.status).toBe(409);
    expect(late.json.details[0]).toMatch(/^Lease lost: the lease of task .* expired at /);
  });

  it('release gives the task back with the error and a delay, and the token is then dead', async () => {
    await drain();
    const [id] = await newTasks(1);
    const [t] = await claim({});
    const before = Date.now();
    const r = await post(id!, 'release', {
      leaseToken: t!.leaseToken,
      errorMessage: '抓取失败: HTTP 503',
      retryAfterSeconds: 120,
    });
    expect(r.status).toBe(200);
    expect(r.json.task).toMatchObject({
      status: 'PENDING',
      startedAt: null,
      leaseExpiresAt: null,
      retryCount: 1,
      errorMessage: '抓取失败: HTTP 503',
      attempt: 1,
    });
    const available = Date.parse(r.json.task.availableAt);
    expect(available).toBeGreaterThanOrEqual(before + 119_000);
    expect(available).toBeLessThan(Date.now() + 121_000);
    // not claimable before availableAt
    expect(await claim({})).toEqual([]);
    expect((await post(id!, 'release', { leaseToken: t!.leaseToken })).status).toBe(409);
    expect((await post(id!, 'heartbeat', { leaseToken: t!.leaseToken })).status).toBe(409);
    await sql(`update discovery_tasks set available_at = now() - interval '1 second' where id = $1`, [id]);
    const [again] = await claim({});
    expect(again).toMatchObject({ id, attempt: 2, errorMessage: '抓取失败: HTTP 503' });
    expect(again!.leaseToken).not.toBe(t!.leaseToken);
  });

  it('fenced PATCH and complete: a wrong token is 409 and writes nothing; the right one works', async () => {
    await drain();
    const [a, b] = await newTasks(2);
    const [ta, tb] = await claim({ limit: 2 });
    const p = project();
    const refused = await post(a!, 'complete', { explorationData: p, leaseToken: 'stale' });
    expect(refused.status).toBe(409);
    expect(refused.json.details[0]).toMatch(/^Lease lost: /);
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false })).status).toBe(404);
    expect(await task(a!)).toMatchObject({ status: 'IN_PROGRESS', projectId: null });
    const patchRefused = await s.call('PATCH', `/api/discovery/tasks/${b}`, {
      body: { status: 'FAILED', errorMessage: 'x', leaseToken: ta!.leaseToken },
    });
    expect(patchRefused.status).toBe(409);
    expect(await task(b!)).toMatchObject({ status: 'IN_PROGRESS', errorMessage: null });
    const done = await post(a!, 'complete', { explorationData: p, leaseToken: ta!.leaseToken });
    expect(done.status, done.text).toBe(200);
    expect(await task(a!)).toMatchObject({ status: 'COMPLETED', leaseExpiresAt: null });
    const failed = await s.call('PATCH', `/api/discovery/tasks/${b}`, {
      body: { status: 'FAILED', errorMessage: 'gone', leaseToken: tb!.leaseToken },
    });
    expect(failed.status).toBe(200);
    expect(failed.json.task).toMatchObject({ status: 'FAILED', leaseExpiresAt: null });
    // a token on a task without a lease (PENDING, or IN_PROGRESS by PATCH) is refused
    const [c] = await newTasks(1);
    const toInProgress = await s.call('PATCH', `/api/discovery/tasks/${c}`, {
      body: { status: 'IN_PROGRESS', leaseToken: tb!.leaseToken },
    });
    expect(toInProgress.status).toBe(409);
    expect(toInProgress.json.details[0]).toMatch(/^Lease lost: /);
    // 404 before 409
    expect((await post('no-such-task', 'complete', { explorationData: p, leaseToken: 'x' })).status).toBe(
      404,
    );
  });

  it('without a token PATCH and complete override the lease and end it', async () => {
    await drain();
    const [id] = await newTasks(1);
    const [t] = await claim({});
    const r = await post(id!, 'complete', { explorationData: project() });
    expect(r.status).toBe(200);
    expect(await task(id!)).toMatchObject({ status: 'COMPLETED', leaseExpiresAt: null });
    expect((await post(id!, 'heartbeat', { leaseToken: t!.leaseToken })).status).toBe(409);
    // IN_PROGRESS by PATCH has no lease and is never reaped
    const [other] = await newTasks(1);
    const patched = await s.call('PATCH', `/api/discovery/tasks/${other}`, {
      body: { status: 'IN_PROGRESS' },
    });
    expect(patched.json.task).toMatchObject({ status: 'IN_PROGRESS', leaseExpiresAt: null, attempt: 0 });
    await sql(`update discovery_tasks set started_at = now() - interval '1 day' where id = $1`, [other]);
    await reapExpiredTasks(s.db.db, REAP);
    expect((await task(other!)).status).toBe('IN_PROGRESS');
  });

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

  it('stats and /metrics report the queue', async () => {
    await drain();
    const ids = await newTasks(3);
    const [t] = await claim({});
    await post(t!.id, 'release', { leaseToken: t!.leaseToken, retryAfterSeconds: 600 });
    await claim({});
    await post(ids[1]!, 'heartbeat', { leaseToken: 'wrong' });
    const stats = (await s.call('GET', '/api/discovery/stats')).json;
    const counts = await sql('select status, count(*)::int as n from discovery_tasks group by status');
    for (const { status, n } of counts) expect(stats.counts[status]).toBe(n);
    expect(stats).toMatchObject({ claimable: 1, delayed: 1, leased: 1 });
    expect(stats.oldestClaimableAgeSeconds).toBeGreaterThanOrEqual(0);
    const metrics = (await s.call('GET', '/metrics')).text;
    expect(metrics).toMatch(/discovery_queue_events_total\{event="claimed"\} [1-9]/);
    expect(metrics).toMatch(/discovery_queue_events_total\{event="released"\} [1-9]/);
    expect(metrics).toMatch(/discovery_queue_events_total\{event="fenced"\} [1-9]/);
    expect(metrics).toMatch(/discovery_queue_events_total\{event="heartbeat"\} [1-9]/);
    expect(metrics).toContain('discovery_queue_tasks{state="delayed"} 1');
    expect(metrics).toMatch(/discovery_queue_reaped_total \d+/);
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
