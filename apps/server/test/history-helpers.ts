import { sql } from '@directory/db';
import { expect } from 'vitest';
import type { TestServer } from './helpers.ts';

/**
 * The calls the history tests make on their server (docs/curation.md#history-revert-locks-and-restore):
 * each checks its 200 and returns what the test reads.
 */
export function historyCalls(s: TestServer) {
  const upsert = async (projects: unknown[], headers: Record<string, string> = {}) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects }, headers });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const get = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}`);
    expect(r.status, r.text).toBe(200);
    return r.json.data;
  };
  const revisions = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}/revisions?limit=100`);
    expect(r.status, r.text).toBe(200);
    return r.json.revisions as { revision: number; action: string; via: string; actor: string | null }[];
  };
  /** Every revision row of a project, oldest first, straight from the table. */
  const stored = async (projectId: string) =>
    (
      await sql<{ revision: number; action: string; via: string; task_id: string | null }>`
        select revision, action, via, task_id from project_revisions where project_id = ${projectId} order by revision
      `.execute(s.db.db)
    ).rows;
  return { upsert, get, revisions, stored };
}

export const withoutUpdatedAt = ({ updatedAt: _, ...rest }: Record<string, unknown>) => rest;
