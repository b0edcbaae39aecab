import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer, uniqueUrl } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from './cli-process.ts';

let server: TestServer;
let dir: string;
let crawler: string;

beforeAll(async () => {
  server = await startServer({ postgres: false });
  dir = await mkdtemp(join(tmpdir(), 'directory-work-'));
  // A stand-in crawler: reads the task from stdin, prints a ProjectInput; fails on "/fail/" urls.
  crawler = join(dir, 'crawl.mjs');
  await writeFile(
    crawler,
    `let input = '';
     for await (const chunk of process.stdin) input += chunk;
     const task = JSON.parse(input);
     if (task.leaseToken !== undefined) { console.error('saw the token'); process.exit(3); }
     if (task.sourceUrl.includes('/fail/')) { console.error('抓取失败: HTTP 503'); process.exit(1); }
     const n = task.sourceUrl.split('/').pop();
     console.log(JSON.stringify({ name: 'Crawled ' + n, nameEn: 'Crawled ' + n + ' ' + task.id,
       description: 'Found at ' + task.sourceUrl, tags: [{ name: '爬虫', nameEn: 'Crawler' }], links: [{ type: 'WEBSITE', url: task.sourceUrl }] }));`,
  );
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// as it always was here: the environment inherited whole, but for the two variables set
const start = (args: string[]) => startCli(server, args, []);

const sql = async (text: string, params: unknown[] = []) => (await server.db.pool.query(text, params)).rows;
const drain = () =>
  sql(`update discovery_tasks set status = 'COMPLETED', completed_at = now(), lease_token = null,
       lease_expires_at = null where status in ('PENDING', 'IN_PROGRESS')`);

describe('directory work and tasks stats', () => {
  it('work --exec completes each task with the command’s output and releases a failure with its stderr', async () => {
    await drain();
    const good = [uniqueUrl('ok'), uniqueUrl('ok'), uniqueUrl('ok')];
    const bad = uniqueUrl('fail');
    await server.call('POST', '/api/discovery/tasks', {
      body: { tasks: [...good, bad].map((sourceUrl) => ({ sourceUrl })) },
    });
    const { done } = start(['work', '--exec', `node ${crawler}`, '--concurrency', '2', '--drain', '--json']);
    const result = await done;
    expect(result.code, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      success: true,
      completed: 3,
      released: 1,
      failed: 0,
      lost: 0,
    });
    const rows = await sql(
      'select source_url, status, project_id, error_message from discovery_tasks where source_url = any($1)',
      [[...good, bad]],
    );
    for (const r of rows) {
      if (r.source_url === bad)
        expect(r).toMatchObject({ status: 'PENDING', error_message: '抓取失败: HTTP 503' });
      else expect(r.status === 'COMPLETED' && r.project_id !== null, r.source_url).toBe(true);
    }
    expect(result.stderr).toMatch(/released .* 抓取失败: HTTP 503/);
  }, 60_000);

  it('work gives its tasks back at SIGTERM', async () => {
    await drain();
    const url = uniqueUrl('slow');
    await server.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    const { child, done } = start(['work', '--exec', 'sleep 60', '--worker', 'cli-test']);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [row] = await sql('select status from discovery_tasks where source_url = $1', [url]);
      if (row.status === 'IN_PROGRESS') break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    const [row] = await sql(
      'select status, error_message, worker, lease_token from discovery_tasks where source_url = $1',
      [url],
    );
    expect(row).toMatchObject({
      status: 'PENDING',
      error_message: 'Worker stopped',
      worker: 'cli-test',
      lease_token: null,
    });
  }, 60_000);

  it('tasks stats prints the queue figures', async () => {
    const json = start(['tasks', 'stats', '--json']);
    const r = await json.done;
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout);
    expect(stats).toMatchObject({ success: true, counts: expect.any(Object), claimable: expect.any(Number) });
    const text = await start(['tasks', 'stats']).done;
    expect(text.stdout).toMatch(/COMPLETED\s+\d+/);
    expect(text.stdout).toMatch(/claimable\s+\d+/);
  }, 30_000);
});
