import { expect } from 'vitest';
import { uniqueUrl, useServer } from './helpers.ts';

/*
 * What the tests of the task queue through the API share (docs/workers.md): queue.test.ts (claims,
 * leases, fencing, stats) and queue-reaper.test.ts (the reaper, and endpoint 5 by cursor).
 */

export const REAP = { maxAttempts: 3, backoffBaseMs: 30_000, backoffMaxMs: 3_600_000 };

export interface Leased {
  id: string;
  leaseToken: string;
  [k: string]: unknown;
}

/** The server of a describe block (useServer on `target`) and the queue's calls on it. */
export function useQueue(target: { postgres: boolean }) {
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

  return { s, sql, drain, newTasks, claim, post, task, expire };
}
