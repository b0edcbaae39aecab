import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { project, slugOf, uniqueUrl } from '@directory/server/test/helpers';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './cli-server.ts';

/**
 * `directory tasks` and `directory check` run as their own processes against a test server
 * (docs/getting-started.md#cli-directory): adding tasks in batches, URLs a project already has,
 * listing tasks for an operator, and finding the service and its key with nothing set.
 */

const { server, cli, file, dir } = useCliServer();

describe('directory tasks and check', () => {
  it('adds tasks in batches of 50, lists them, and checks URLs', async () => {
    const urls = Array.from({ length: 60 }, () => uniqueUrl('task'));
    const objectUrl = uniqueUrl('task-object');
    const text = [
      '# discovered today',
      ...urls,
      '',
      'not a url',
      JSON.stringify({ sourceUrl: objectUrl, sourceType: 'rss' }),
    ].join('\n');
    const added = await cli(['tasks', 'add', await file('urls.txt', text), '--source-type', 'cli']);
    expect(added.code).toBe(1);
    expect(added.stdout.split('\n')).toEqual([
      '61 created, 0 skipped (already have a task), 61 total, 1 failed',
      'Failed:',
      '  #60 (line 63) "not a url": sourceUrl: Invalid URL: expected an HTTP or HTTPS URL',
      '',
    ]);
    expect(added.stderr).toBe(
      'batch 1 of 2: 50 items, 50 of 62 done: 50 created, 0 skipped, 0 failed\n' +
        'batch 2 of 2: 12 items, 62 of 62 done: 61 created, 0 skipped, 1 failed\n',
    );

    const newUrl = uniqueUrl('task-new');
    const again = await cli(['tasks', 'add', '-', '--json'], {
      input: JSON.stringify([...urls.slice(0, 3), { sourceUrl: newUrl }]),
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      created: 1,
      skipped: 3,
      total: 4,
      failed: 0,
      errors: [],
      existingProjects: [],
    });

    const all = await cli(['tasks', 'list', '--all', '--json']);
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout);
    expect(listed.tasks.map((t: any) => t.sourceUrl)).toEqual([...urls, objectUrl, newUrl]);
    expect(listed.tasks.map((t: any) => t.sourceType)).toEqual([...urls.map(() => 'cli'), 'rss', 'manual']);
    expect(listed).toMatchObject({ total: 62, hasMore: false });

    const page = await cli(['tasks', 'list', '--status', 'pending', '--limit', '3', '--offset', '60']);
    expect(page.code).toBe(0);
    const [header, ...rest] = page.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID +STATUS +TYPE +ATTEMPT +CREATED +AVAILABLE +SOURCE URL +ERROR$/);
    expect(rest).toEqual([
      expect.stringMatching(
        new RegExp(`^\\w+ +PENDING +rss +0 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ +- +${objectUrl}$`),
      ),
      expect.stringMatching(new RegExp(`^\\w+ +PENDING +manual +0 +.+ +- +${newUrl}$`)),
      'Tasks 61-62 of 62',
    ]);

    const stored = project();
    await server.call('POST', '/api/webhook/projects', { body: { projects: [stored] } });
    const fresh = uniqueUrl('unseen');
    const check = await cli(['check', urls[0]!, stored.links[0]!.url, fresh]);
    expect(check.code).toBe(0);
    const rows = check.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^URL +CREATE +REASON$/);
    expect(rows[1]).toMatch(new RegExp(`^${urls[0]} +no +Task already pending \\(task \\w+\\)$`));
    expect(rows[2]).toMatch(/ no +Project already exists \(project [\w-]+\)$/);
    expect(rows[3]).toMatch(new RegExp(`^${fresh} +yes +New URL$`));
    expect(rows[4]).toBe('3 URLs: 1 to create, 2 duplicates');

    const checkJson = await cli(['check', urls[0]!, fresh, '--json']);
    expect(JSON.parse(checkJson.stdout)).toMatchObject({
      success: true,
      results: [
        { url: urls[0], shouldCreate: false },
        { url: fresh, shouldCreate: true, reason: 'New URL' },
      ],
      stats: { total: 2, shouldCreate: 1, duplicate: 1 },
    });
  });
});

describe('directory tasks add, for URLs a project already has', () => {
  it('checks first and queues them only with --force, saying so per URL', async () => {
    const stored = project();
    await server.call('POST', '/api/webhook/projects', { body: { projects: [stored] } });
    const known = stored.links[0]!.url;
    const fresh = uniqueUrl('beside-known');
    const added = await cli(['tasks', 'add', '-', '--quiet'], { input: `${known}\n${fresh}\n` });
    expect(added.code).toBe(0);
    expect(added.stdout.split('\n')).toEqual([
      '1 created, 0 skipped (already have a task), 1 total, 1 not queued (a project has the URL)',
      'Not queued (--force queues them anyway):',
      `  ${known}: project ${slugOf(stored)} already has this URL`,
      '',
    ]);
    // Whether the URL has a task now, by the duplicate check (whatever else the queue holds).
    const queued = async (url: string) =>
      (await server.call('POST', '/api/discovery/check-duplicates', { body: { urls: [url] } })).json
        .results[0].existingTask !== undefined;
    expect(await queued(fresh)).toBe(true);
    expect(await queued(known)).toBe(false);

    const json = await cli(['tasks', 'add', '-', '--json'], { input: known });
    expect(JSON.parse(json.stdout)).toMatchObject({
      created: 0,
      existingProjects: [{ index: 0, line: 1, sourceUrl: known, slug: slugOf(stored) }],
    });
    const forced = await cli(['tasks', 'add', '-', '--force', '--quiet'], { input: known });
    expect(forced).toMatchObject({
      code: 0,
      stdout: '1 created, 0 skipped (already have a task), 1 total\n',
    });
    expect(await queued(known)).toBe(true);
  });
});

describe('finding the service and its key with nothing set', () => {
  it('uses PORT for the address and the key the server keeps in data/api-key', async () => {
    const repo = await mkdtemp(join(dir(), 'repo-'));
    const port = new URL(server.baseUrl).port;
    // Without the key file: the key is missing, and the error says so.
    const keyless = await cli(['tasks', 'stats'], { cwd: repo, bare: true, env: { PORT: port } });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('Invalid or missing API Key');
    await mkdir(join(repo, 'data'));
    await writeFile(join(repo, 'data', 'api-key'), `${server.key}\n`);
    const stats = await cli(['tasks', 'stats', '--json'], { cwd: repo, bare: true, env: { PORT: port } });
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ success: true });
    // DATABASE_URL=pglite:<dir> moves the key file as it moves the server's data.
    await mkdir(join(repo, 'elsewhere'));
    await writeFile(join(repo, 'elsewhere', 'api-key'), server.key);
    await rm(join(repo, 'data'), { recursive: true });
    const moved = await cli(['tasks', 'stats', '--json'], {
      cwd: repo,
      bare: true,
      env: { PORT: port, DATABASE_URL: 'pglite:./elsewhere' },
    });
    expect(moved.code).toBe(0);
    // DIRECTORY_URL still wins over PORT.
    const wins = await cli(['tasks', 'stats'], {
      cwd: repo,
      bare: true,
      env: { PORT: '1', DIRECTORY_URL: server.baseUrl, DIRECTORY_API_KEY: server.key },
    });
    expect(wins.code).toBe(0);
  });
});

describe('directory tasks list, for an operator', () => {
  it("shows each task's attempt, when it is claimable again, and its error", async () => {
    const url = uniqueUrl('troubled');
    await server.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    const { id } = (await server.call('POST', '/api/discovery/check-duplicates', { body: { urls: [url] } }))
      .json.results[0].existingTask;
    await server.call('PATCH', `/api/discovery/tasks/${id}`, { body: { status: 'IN_PROGRESS' } });
    const error = `fetch failed: 503 from the host ${'x'.repeat(80)}\nsecond line`;
    await server.call('PATCH', `/api/discovery/tasks/${id}`, {
      body: { status: 'FAILED', errorMessage: error },
    });
    // As a release after a third attempt leaves it (the lease fields are the queue's to set).
    await server.db.pool.query(
      `update discovery_tasks set attempt = 3, available_at = '2030-01-02T03:04:05Z' where id = $1`,
      [id],
    );
    const r = await cli(['tasks', 'list', '--status', 'failed', '--all']);
    expect(r.code).toBe(0);
    const row = r.stdout.split('\n').find((line) => line.startsWith(id));
    expect(row).toMatch(
      new RegExp(
        `^${id} +FAILED +manual +3 +\\S+ \\S+Z +2030-01-02 03:04:05Z +${url} +fetch failed: 503 from the host x+…$`,
      ),
    );
    expect(row).not.toContain('second line');
  });
});
