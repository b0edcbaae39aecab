import { reapExpiredTasks } from '@directory/core/server';
import { describe, expect, it } from 'vitest';
import { project, slugOf, targets } from './helpers.ts';
import { REAP, useQueue } from './queue-helpers.ts';

/**
 * The task queue through the API on PGlite and PostgreSQL (docs/workers.md#the-loop): claims in queue
 * order, waiting claims, leases with heartbeat and release, fencing by the lease token, and the stats
 * and /metrics of the queue (docs/workers.md#watching-the-queue). The reaper and endpoint 5 by cursor
 * are in queue-reaper.test.ts.
 */

describe.each(targets)('the task queue on $name', (target) => {
  const { s, sql, drain, newTasks, claim, post, task, expire } = useQueue(target);

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
});
