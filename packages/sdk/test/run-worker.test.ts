import { project, startServer, type TestServer, targets, uniqueUrl } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryClient,
  type DirectoryClient,
  type ProjectInput,
  type WorkerEvent,
} from '../src/index.ts';

describe.each(targets)('runWorker on $name', (target) => {
  let s: TestServer;
  let client: DirectoryClient;
  beforeAll(async () => {
    s = await startServer(target);
    client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
  });
  afterAll(async () => {
    await s?.close();
  });

  const sql = async (text: string, params: unknown[] = []) => (await s.db.pool.query(text, params)).rows;
  const drain = () =>
    sql(`update discovery_tasks set status = 'COMPLETED', completed_at = now(), lease_token = null,
         lease_expires_at = null where status in ('PENDING', 'IN_PROGRESS')`);
  async function queue(n: number): Promise<string[]> {
    const urls = Array.from({ length: n }, () => uniqueUrl('worker'));
    await client.tasks.create({ tasks: urls.map((sourceUrl) => ({ sourceUrl })) });
    const rows = await sql('select id from discovery_tasks where source_url = any($1) order by created_at', [
      urls,
    ]);
    return rows.map((r) => r.id);
  }

  it('completes every task once with the handler’s project, concurrently, then stops', async () => {
    await drain();
    const ids = await queue(12);
    const stop = new AbortController();
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    const totals = client.runWorker({
      concurrency: 3,
      leaseSeconds: 30,
      waitSeconds: 1,
      signal: stop.signal,
      handler: async (task) => {
        seen.push(task.id);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 30));
        inFlight--;
        if (seen.length === 12) setTimeout(() => stop.abort(), 50);
        return project() as ProjectInput;
      },
    });
    expect(await totals).toEqual({ completed: 12, released: 0, failed: 0, lost: 0 });
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(most).toBe(3);
    const rows = await sql(`select status, project_id from discovery_tasks where id = any($1)`, [ids]);
    expect(rows.every((r) => r.status === 'COMPLETED' && r.project_id)).toBe(true);
  });

  it('a thrown error releases the task with the message and a backoff; stopping releases what it holds', async () => {
    await drain();
    const [bad, slow] = await queue(2);
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    const totals = client.runWorker({
      concurrency: 2,
      waitSeconds: 1,
      signal: stop.signal,
      retryAfterSeconds: () => 900,
      onEvent: (e) => events.push(e),
      handler: async (task, { signal }) => {
        if (task.id === bad) throw new Error('上游 503: try later');
        // works until stopped
        await new Promise((r) => signal.addEventListener('abort', r));
        throw new Error('aborted');
      },
    });
    await new Promise((r) => setTimeout(r, 500));
    stop.abort();
    expect(await totals).toEqual({ completed: 0, released: 2, failed: 0, lost: 0 });
    const [b] = await sql('select * from discovery_tasks where id = $1', [bad]);
    expect(b).toMatchObject({ status: 'PENDING', error_message: '上游 503: try later', retry_count: 1 });
    expect(b.available_at.getTime() - Date.now()).toBeGreaterThan(800_000);
    const [w] = await sql('select * from discovery_tasks where id = $1', [slow]);
    expect(w).toMatchObject({ status: 'PENDING', error_message: 'Worker stopped', lease_token: null });
    expect(events.filter((e) => e.type === 'released')).toHaveLength(2);
  });

  it('heartbeats keep a short lease alive; a lost lease is not completed', async () => {
    await drain();
    const [id] = await queue(1);
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    let beats = 0;
    const totals = client.runWorker({
      leaseSeconds: 5,
      waitSeconds: 1,
      signal: stop.signal,
      onEvent: (e) => events.push(e),
      handler: async (task) => {
        // two heartbeats (every 5/3 s) renew the lease past its first end
        await new Promise((r) => setTimeout(r, 3_700));
        const [row] = await sql('select lease_expires_at from discovery_tasks where id = $1', [task.id]);
        beats = row.lease_expires_at.getTime() - Date.parse(task.leaseExpiresAt!);
        // then the lease is lost (reclaimed by someone else): the result must not be written
        await sql(`update discovery_tasks set lease_token = 'someone-else' where id = $1`, [task.id]);
        setTimeout(() => stop.abort(), 100);
        return project() as ProjectInput;
      },
    });
    expect(await totals).toMatchObject({ completed: 0, lost: 1 });
    expect(beats).toBeGreaterThan(2_000);
    const [row] = await sql('select status, project_id from discovery_tasks where id = $1', [id]);
    expect(row).toMatchObject({ status: 'IN_PROGRESS', project_id: null });
    expect(events.some((e) => e.type === 'lost')).toBe(true);
  }, 15_000);
});
