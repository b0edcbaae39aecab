import { urlKey } from '../packages/core/src/domain/url-key.ts';
import { benchId, seededProject, taskUrl } from './data.ts';
import { inChunks, type Pool } from './seed-chunks.ts';

/** The projects a seeding wrote: their ids and slugs, project i at index i. */
export interface WrittenProjects {
  ids: string[];
  slugs: string[];
}

/* The discovery tasks of a seeded database (seed.ts), and the pending ones the claim scenario takes. */

type TaskStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface SeededTask {
  id: string;
  status: TaskStatus;
  sourceUrl: string;
}

const INSERT_TASKS = `
  insert into discovery_tasks (id, source_url, url_key, source_type, status, created_at, started_at, completed_at,
    project_id, error_message, retry_count, last_retry_at)
  select id, source_url, url_key, source_type, status, created_at, started_at, completed_at,
    project_id, error_message, retry_count, last_retry_at
  from json_to_recordset($1::json) as r(id text, source_url text, url_key text, source_type text, status text,
    created_at timestamptz, started_at timestamptz, completed_at timestamptz, project_id text,
    error_message text, retry_count int, last_retry_at timestamptz)
`;

/**
 * Adds `tasks` discovery tasks to a database holding the projects `written`: half pending, then
 * in progress, completed (each the task that made a project, so its url is also that project's
 * CODEHOST link) and failed, in queue order. Then VACUUM ANALYZE so the planner has statistics
 * and index-only scans work, as autovacuum would leave a live database.
 */
export async function seedTasks(
  pool: Pool,
  tasks: number,
  written: WrittenProjects,
): Promise<{ tasks: SeededTask[]; vacuumSeconds: number }> {
  const now = Date.now();
  const projects = written.ids.length;
  const seededTasks = new Array<SeededTask>(tasks);
  let completed = 0;
  await inChunks(pool, tasks, async (client, from, to) => {
    const rows = [];
    for (let j = from; j < to; j++) {
      const slot = j % 10;
      const status: TaskStatus =
        slot < 5 ? 'PENDING' : slot === 5 ? 'IN_PROGRESS' : slot < 9 ? 'COMPLETED' : 'FAILED';
      const created = now - (tasks - j) * 1000;
      const projectIndex = status === 'COMPLETED' && completed < projects ? completed++ : -1;
      const sourceUrl = projectIndex >= 0 ? seededProject(projectIndex).links[0]!.url : taskUrl(j);
      const id = benchId();
      seededTasks[j] = { id, status, sourceUrl };
      rows.push({
        id,
        source_url: sourceUrl,
        url_key: urlKey(sourceUrl),
        source_type: j % 3 === 0 ? 'crawler' : 'manual',
        status,
        created_at: new Date(created).toISOString(),
        started_at: status === 'PENDING' ? null : new Date(created + 500).toISOString(),
        completed_at:
          status === 'COMPLETED' || status === 'FAILED' ? new Date(created + 900).toISOString() : null,
        project_id: projectIndex >= 0 ? written.ids[projectIndex] : null,
        error_message: status === 'FAILED' ? 'Exploration timed out' : null,
        retry_count: status === 'FAILED' ? 1 : 0,
        last_retry_at: null,
      });
    }
    await client.query(INSERT_TASKS, [JSON.stringify(rows)]);
  });
  const started = performance.now();
  await pool.query('vacuum (analyze) projects, tags, project_tags, links, discovery_tasks');
  return { tasks: seededTasks, vacuumSeconds: (performance.now() - started) / 1000 };
}

/**
 * Adds `count` PENDING tasks at the end of the queue for the PATCH claim scenario, which
 * moves each of them to IN_PROGRESS once; returns their ids.
 */
export async function seedClaimTasks(pool: Pool, count: number, runTag: string): Promise<string[]> {
  const ids = Array.from({ length: count }, () => benchId());
  await inChunks(pool, count, async (client, from, to) => {
    const rows = [];
    for (let k = from; k < to; k++) {
      const url = `https://claims.example.org/${runTag}/${k}`;
      rows.push({ id: ids[k], source_url: url, url_key: urlKey(url), source_type: 'manual' });
    }
    await client.query(
      `insert into discovery_tasks (id, source_url, url_key, source_type)
       select id, source_url, url_key, source_type
       from json_to_recordset($1::json) as r(id text, source_url text, url_key text, source_type text)`,
      [JSON.stringify(rows)],
    );
  });
  await pool.query('analyze discovery_tasks');
  return ids;
}
