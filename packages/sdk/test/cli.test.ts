import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { project, slugOf, startServer, type TestServer, uniqueUrl } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readItems } from '../src/cli/input.ts';
import { createProgress, renderBar, renderPlain } from '../src/cli/progress.ts';
import { type CliIo, run } from '../src/cli/run.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
// By its location: the CLI also runs from directories outside the repository.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer({ postgres: false });
  dir = await mkdtemp(join(tmpdir(), 'directory-cli-'));
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Runs the CLI as its own process, the way `pnpm directory` does, with DIRECTORY_URL and
 * DIRECTORY_API_KEY pointing at the test server unless `env` says otherwise. Every run also
 * checks that the API key never shows in the output.
 */
async function cli(
  args: string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string; bare?: boolean } = {},
) {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DIRECTORY_URL', 'DIRECTORY_API_KEY', 'WEBHOOK_API_KEY', 'PORT', 'DATABASE_URL'])
    delete env[name];
  // bare: as a person's shell after the README's first command, with no service variable set
  if (!options.bare) Object.assign(env, { DIRECTORY_URL: server.baseUrl, DIRECTORY_API_KEY: server.key });
  Object.assign(env, options.env);
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd: options.cwd ?? ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdin.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  const result: Result = { code, stdout, stderr };
  expect(stdout + stderr).not.toContain(server.key);
  return result;
}

const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

const ndjson = (items: unknown[]) => `${items.map((i) => JSON.stringify(i)).join('\n')}\n`;

/** The one line a failed run writes to stderr; never a stack trace. */
function expectOneErrorLine(r: Result) {
  expect(r.stderr).toMatch(/^error: .+\n$/);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('directory import', () => {
  it('imports 1,000 projects from NDJSON in batches of 100, then updates them all on re-import', async () => {
    const projects = Array.from({ length: 1000 }, () => project());
    const path = await file('thousand.ndjson', ndjson(projects));

    let started = performance.now();
    const first = await cli(['import', path]);
    const firstMs = performance.now() - started;
    expect(first.stderr.split('\n').filter(Boolean)).toHaveLength(10);
    expect(first.code).toBe(0);
    // one line per project with its slug, then the summary
    const out = first.stdout.split('\n');
    expect(out).toHaveLength(1002);
    expect(out.slice(0, 1000).every((line) => /^created {2}\S+$/.test(line))).toBe(true);
    expect(out.slice(1000)).toEqual(['1000 projects processed: 1000 created, 0 updated, 0 failed', '']);
    // Not a terminal: one plain line per batch, no carriage returns or escape codes.
    // Each line: the batch of how many, its own size, then the records done of the file's.
    expect(first.stderr).toMatch(
      /^batch 1 of 10: 100 items, 100 of 1000 done: 100 created, 0 updated, 0 failed\n/,
    );
    expect(first.stderr).toMatch(
      /\nbatch 2 of 10: 100 items, 200 of 1000 done: 200 created, 0 updated, 0 failed\n/,
    );
    expect(first.stderr).toMatch(
      /\nbatch 10 of 10: 100 items, 1000 of 1000 done: 1000 created, 0 updated, 0 failed\n$/,
    );
    expect(first.stderr).not.toContain('\r');
    expect(first.stderr).not.toContain('\x1b');

    for (const p of [projects[0]!, projects[499]!, projects[999]!]) {
      const res = await server.call('GET', `/api/projects/${slugOf(p)}`);
      expect(res.status).toBe(200);
      expect(res.json.data).toMatchObject({ name: p.name, description: p.description });
    }

    started = performance.now();
    const again = await cli(['import', path, '--json', '--quiet']);
    const againMs = performance.now() - started;
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toEqual({
      processed: 1000,
      created: 0,
      updated: 1000,
      failed: 0,
      errors: [],
      results: expect.any(Array),
    });
    expect(JSON.parse(again.stdout).results[999]).toMatchObject({ index: 999, action: 'updated' });
    console.log(`1,000-project import: ${Math.round(firstMs)} ms; re-import: ${Math.round(againMs)} ms`);
  }, 300_000);

  it('lists each failed item with its index, line and message, and still writes the valid ones', async () => {
    const good1 = project();
    const good2 = project();
    const badTags = project({ tags: [] });
    const url = uniqueUrl('twice');
    const twice = project({
      links: [
        { type: 'WEBSITE', url },
        { type: 'CODEHOST', url },
      ],
    });
    const text = [
      JSON.stringify(good1),
      '',
      '{not json',
      JSON.stringify(badTags),
      JSON.stringify(twice),
      '"a string"',
      JSON.stringify(good2),
    ].join('\n');
    const r = await cli(['import', await file('mixed.ndjson', text)]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      `created  ${slugOf(good1)}`,
      `created  ${slugOf(good2)}`,
      '6 projects processed: 2 created, 0 updated, 4 failed',
      'Failed:',
      expect.stringMatching(/^ {2}#1 \(line 3\): not valid JSON: /),
      `  #2 (line 4) ${JSON.stringify(badTags.name)}: tags: Too small: expected array to have >=1 items`,
      expect.stringMatching(new RegExp(`^  #3 \\(line 5\\) ".+": links\\.1\\.url: .*${url}.* listed twice$`)),
      '  #4 (line 6): expected a project object',
      '',
    ]);
    for (const p of [good1, good2]) {
      expect((await server.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(200);
    }
    for (const p of [badTags, twice]) {
      expect((await server.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(404);
    }
  });

  it('reads a JSON array file; --json gives the summary with failure indexes', async () => {
    const bad = project({ description: 'short' });
    const items = [project(), bad, project()];
    const r = await cli(['import', await file('array.json', JSON.stringify(items, null, 2)), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      processed: 3,
      created: 2,
      updated: 0,
      failed: 1,
      errors: [{ index: 1, name: bad.name, error: expect.stringMatching(/^description: Too small/) }],
      results: [
        { index: 0, action: 'created', slug: slugOf(items[0]!) },
        { index: 2, action: 'created', slug: slugOf(items[2]!) },
      ],
    });
  });

  it("reads stdin for '-', telling JSON from NDJSON by the content", async () => {
    const items = [project(), project()];
    const wrapped = await cli(['import', '-', '--json'], {
      input: JSON.stringify({ projects: items }, null, 2),
    });
    expect(wrapped.code).toBe(0);
    expect(JSON.parse(wrapped.stdout)).toMatchObject({ processed: 2, created: 2, failed: 0 });
    expect(wrapped.stderr).toBe('batch 1 of 1: 2 items, 2 of 2 done: 2 created, 0 updated, 0 failed\n');

    const lines = await cli(['import', '-'], { input: `\r\n${ndjson(items).replaceAll('\n', '\r\n')}` });
    expect(lines).toMatchObject({
      code: 0,
      stdout: `updated  ${slugOf(items[0]!)}\nupdated  ${slugOf(items[1]!)}\n2 projects processed: 0 created, 2 updated, 0 failed\n`,
    });
  });

  it('shows the warning of an update found by slug only whose links differ (docs/curation.md#updates-that-may-be-wrong)', async () => {
    const p = project();
    const other = { ...p, links: [{ type: 'CODEHOST', url: `https://github.com/${slugOf(p)}/elsewhere` }] };
    const r = await cli(['import', '-'], { input: ndjson([p, other]) });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `created  ${slugOf(p)}`,
      `updated  ${slugOf(p)}  (warning: matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's)`,
      '2 projects processed: 1 created, 1 updated, 0 failed',
      '',
    ]);
    const json = await cli(['import', '-', '--json'], {
      input: ndjson([{ ...p, description: 'Back again.' }]),
    });
    expect(JSON.parse(json.stdout).results).toEqual([
      {
        index: 0,
        action: 'updated',
        slug: slugOf(p),
        warnings: ["matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's"],
      },
    ]);
  });
});

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
    const repo = await mkdtemp(join(dir, 'repo-'));
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

describe('directory get and delete', () => {
  it('lists duplicates and merges one project into another; refusals are exit 1 with the message', async () => {
    const repo = `https://github.com/Cli-${Date.now()}/Dup`;
    const a = project({ links: [{ type: 'PAPER', url: repo }] });
    const b = project({ links: [{ type: 'PAPER', url: `${repo.toLowerCase()}.git` }] });
    await server.call('POST', '/api/webhook/projects', { body: { projects: [a, b] } });
    const listed = await cli(['duplicates', '--limit', '100']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`link ${repo.slice('https://'.length).toLowerCase()}\n`);
    expect(listed.stdout).toMatch(new RegExp(`  ${slugOf(a)} .*\\n  ${slugOf(b)} `));

    const merged = await cli(['merge', slugOf(a), slugOf(b)]);
    expect(merged).toMatchObject({
      code: 0,
      stdout: `Merged ${slugOf(a)} into ${slugOf(b)} (${JSON.stringify(b.name)}): now 1 link, 1 tag; ${slugOf(a)} is an alias of ${slugOf(b)}\n`,
      stderr: '',
    });
    // get follows the alias to the project it went into
    const shown = await cli(['get', slugOf(a), '--json']);
    expect(JSON.parse(shown.stdout).data.slug).toBe(slugOf(b));
    const again = await cli(['merge', slugOf(a), slugOf(b)]);
    expect(again).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: Project "${slugOf(a)}" was merged into "${slugOf(b)}"; use "${slugOf(b)}"\n`,
    });
    expect((await cli(['merge', slugOf(b), slugOf(b)])).code).toBe(1);
    expect((await cli(['merge', slugOf(b)])).code).toBe(2);
  });

  it('shows and deletes a project; an unknown slug is exit 1 with the 404 message', async () => {
    const p = project({ content: '# 标题\n\n第二段', contentEn: 'In English.' });
    const slug = slugOf(p);
    await server.call('POST', '/api/webhook/projects', { body: { projects: [p] } });

    const shown = await cli(['get', slug]);
    expect(shown.stdout).toContain('content:\n  # 标题\n\n  第二段\ncontentEn:\n  In English.\n');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`name:          ${p.name}\n`);
    expect(shown.stdout).toContain(`slug:          ${slug}\n`);
    expect(shown.stdout).toContain(`  CODEHOST  ${p.links[0]!.url}\n`);

    const json = await cli(['get', slug, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: true, data: { slug, name: p.name } });

    const deleted = await cli(['delete', slug]);
    expect(deleted).toMatchObject({
      code: 0,
      stdout: `Deleted ${JSON.stringify(p.name)} (${slug}): 2 links, 1 tag association\n`,
      stderr: '',
    });

    const [gone, again] = await Promise.all([cli(['get', slug]), cli(['delete', slug, '--json'])]);
    for (const r of [gone, again]) {
      expect(r).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `error: Project with slug "${slug}" not found\n`,
      });
    }
  });
});

describe('directory related', () => {
  it('lists related projects with what they share; an unknown slug is exit 1 with the 404 message', async () => {
    const org = `Rel-${Date.now()}`;
    const over = (n: number) => ({
      tags: [{ name: `related-${org}` }],
      links: [{ type: 'CODEHOST', url: `https://github.com/${org}/p${n}` }],
    });
    const [a, b] = [project(over(1)), project(over(2))];
    await server.call('POST', '/api/webhook/projects', { body: { projects: [a, b] } });
    const shown = await cli(['related', slugOf(a), '--limit', '3']);
    expect(shown.code, shown.stderr).toBe(0);
    const [header, first] = shown.stdout.split('\n');
    expect(header).toMatch(/^SLUG +NAME +SCORE +TAGS +WORDS +OWNER$/);
    expect(first).toMatch(
      new RegExp(`^${slugOf(b)} .* related-${org.toLowerCase()} .* github\\.com/${org}$`),
    );
    const json = await cli(['related', slugOf(a), '--json']);
    expect(JSON.parse(json.stdout).projects[0]).toMatchObject({
      slug: slugOf(b),
      related: { owner: `github.com/${org}` },
    });
    expect(await cli(['related', 'no-such-project'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: Project with slug "no-such-project" not found\n',
    });
    const refused = await cli(['related', slugOf(a), '--limit', '21']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('limit');
  });
});

describe('usage and connection errors', () => {
  it.concurrent.each([
    [[], 'missing command'],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['tasks', 'remove'], "unknown command 'tasks remove'"],
    [['import'], 'missing argument'],
    [['import', 'x.ndjson', '--bogus'], "unknown option '--bogus'"],
    [['import', '/no/such/file.ndjson'], 'cannot read /no/such/file.ndjson: no such file'],
    [['tasks', 'list', '--limit', 'ten'], '--limit must be a non-negative integer'],
    [['tasks', 'list', '--all', '--offset', '5'], '--all takes no --limit or --offset'],
    [['get', 'a', 'b'], "unexpected argument 'b'"],
    [['get', 'a', '--base-url', 'localhost:3000'], 'the base URL must be an http(s) URL'],
  ])('%j exits 2: %s', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneErrorLine(r);
    expect(r.stderr).toContain(message);
  });

  it('refuses a file that is not JSON where JSON is required, sending nothing', async () => {
    const r = await cli(['import', await file('broken.json', '[{"name": ')]);
    expect(r.code).toBe(2);
    expectOneErrorLine(r);
    expect(r.stderr).toMatch(/broken\.json is not valid JSON/);
  });

  it('--help works for the CLI and for each command', async () => {
    const [all, imp, add] = await Promise.all([
      cli(['--help']),
      cli(['import', '--help']),
      cli(['help', 'tasks', 'add']),
    ]);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    for (const name of ['import', 'tasks add', 'tasks list', 'check', 'get', 'related', 'delete']) {
      expect(all.stdout).toContain(`\n  ${name} `);
    }
    expect(imp.stdout).toMatch(/^Usage: directory import \[--restore\] <file\.json\|file\.ndjson\|->\n/);
    expect(add.stdout).toMatch(/^Usage: directory tasks add <file\|->\n/);
    expect(add.stdout).toContain('--source-type');
  });

  it('an unreachable server is exit 2 with one line naming the connection error', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const r = await cli(['tasks', 'list'], { env: { DIRECTORY_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(2);
    expectOneErrorLine(r);
    expect(r.stderr).toMatch(/cannot reach .*ECONNREFUSED/);
  });

  it('a wrong key is exit 2 with the 401 message, and the key is not printed', async () => {
    const wrong = 'wrong-key-0123456789';
    const p = project();
    const [flag, env] = await Promise.all([
      cli(['import', '-', '--api-key', wrong], { input: JSON.stringify([p]) }),
      cli(['tasks', 'list'], { env: { DIRECTORY_API_KEY: wrong } }),
    ]);
    for (const r of [flag, env]) {
      expect(r.code).toBe(2);
      expectOneErrorLine(r);
      expect(r.stderr).toContain('401 Unauthorized: Invalid or missing API Key');
      expect(r.stdout + r.stderr).not.toContain(wrong);
    }
    // where the refused key came from
    expect(flag.stderr).toContain('(the key sent came from --api-key;');
    expect(env.stderr).toContain(`(the key sent came from DIRECTORY_API_KEY; ${server.baseUrl} refused it`);
    expect((await server.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(404);
  });
});

describe('progress rendering (in-process)', () => {
  const state = {
    batch: 3,
    batchItems: 100,
    done: 300,
    total: 700,
    batchSize: 100,
    counts: { created: 250, updated: 40, failed: 10 },
  };
  const line = 'batch 3 of 7: 100 items, 300 of 700 done: 250 created, 40 updated, 10 failed';

  it('draws a bar when the share done is known, and counts only when not', () => {
    expect(renderBar({ ...state, fraction: 0.25 }, 120)).toBe(`[████░░░░░░░░░░░░]  25% ${line}`);
    expect(renderBar(state, 120)).toBe(line);
    // No room for the bar beside the words: the words alone (they say the same in figures).
    expect(renderBar({ ...state, fraction: 0.25 })).toBe(line);
    // Never as wide as the terminal: a wrapped line cannot be redrawn with \r.
    expect(renderBar({ ...state, fraction: 1 }, 40)).toBe('batch 3 of 7: 100 items, 300 of 700 don');
    expect(renderPlain(state)).toBe(line);
  });

  it('says the batch of how many and the records of how many, or neither when the total is unknown', () => {
    expect(renderPlain({ ...state, total: undefined })).toBe(
      'batch 3: 100 items, 300 done: 250 created, 40 updated, 10 failed',
    );
    // 50 records refused before sending make no batch: the count of batches comes down to what is sent.
    expect(renderPlain({ ...state, batch: 6, batchItems: 100, done: 650 })).toMatch(
      /^batch 6 of 7: 100 items, 650 of 700 done/,
    );
    expect(renderPlain({ ...state, batch: 7, batchItems: 50, done: 700 })).toMatch(
      /^batch 7 of 7: 50 items, 700 of 700 done/,
    );
    expect(renderPlain({ ...state, batch: 6, batchItems: 50, done: 700 })).toMatch(
      /^batch 6 of 6: 50 items, 700 of 700 done/,
    );
    expect(renderPlain({ ...state, batch: 1, batchItems: 1, done: 1, total: 1 })).toMatch(
      /^batch 1 of 1: 1 item, 1 of 1 done/,
    );
  });

  it('redraws one line in place on a terminal and ends it with a newline', () => {
    const writes: string[] = [];
    const progress = createProgress({ isTTY: true, columns: 120, write: (s: string) => writes.push(s) });
    progress.update({ ...state, fraction: 0.5 });
    progress.update({ ...state, batch: 4, done: 400, fraction: 1 });
    progress.done();
    expect(writes).toEqual([
      `\r[████████░░░░░░░░]  50% ${line}\x1b[K`,
      '\r[████████████████] 100% batch 4 of 7: 100 items, 400 of 700 done: 250 created, 40 updated, 10 failed\x1b[K',
      '\n',
    ]);
  });

  it('writes plain lines when not a terminal, and nothing when disabled', () => {
    const writes: string[] = [];
    const stream = { write: (s: string) => writes.push(s) };
    createProgress(stream).update({ ...state, fraction: 0.5 });
    const quiet = createProgress(stream, false);
    quiet.update(state);
    quiet.done();
    expect(writes).toEqual([`${line}\n`]);
  });
});

describe('input reading (in-process)', () => {
  const source = (text: string, ext = '') => ({
    name: 'test',
    chunks: Readable.from([Buffer.from(text)]),
    size: Buffer.byteLength(text),
    ext,
  });
  const collect = async (reader: Awaited<ReturnType<typeof readItems>>) => {
    const out = [];
    for await (const item of reader.items) out.push(item);
    return out;
  };

  it('takes a leading BOM, CRLF and blank lines in NDJSON, numbering records and lines', async () => {
    const reader = await readItems(source('\uFEFF{"a":1}\r\n\r\n{"b":2}\r\nnope\r\n'), {
      wrapperKey: 'projects',
    });
    expect(await collect(reader)).toEqual([
      { index: 0, line: 1, value: { a: 1 } },
      { index: 1, line: 3, value: { b: 2 } },
      { index: 2, line: 4, error: expect.stringMatching(/^not valid JSON/) },
    ]);
    expect(reader.fraction()).toBe(1);
  });

  it('tells a pretty-printed or one-line wrapper document from NDJSON', async () => {
    const wrapper = { projects: [{ a: 1 }, { b: 2 }] };
    for (const text of [
      JSON.stringify(wrapper, null, 2),
      JSON.stringify(wrapper),
      JSON.stringify(wrapper.projects),
    ]) {
      expect(await collect(await readItems(source(text), { wrapperKey: 'projects' }))).toEqual([
        { index: 0, value: { a: 1 } },
        { index: 1, value: { b: 2 } },
      ]);
    }
  });

  it('takes plain-text lines as strings for URL lists, skipping comments', async () => {
    const text = '# list\nhttps://a.example/\n"https://b.example/"\n{"sourceUrl":"https://c.example/"}\n';
    const items = await collect(await readItems(source(text), { wrapperKey: 'tasks', plainText: true }));
    expect(items.map((i) => i.value)).toEqual([
      'https://a.example/',
      'https://b.example/',
      { sourceUrl: 'https://c.example/' },
    ]);
  });
});

describe('run (in-process)', () => {
  const capture = (overrides: Partial<CliIo> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      stdin: Readable.from([]),
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      env: { DIRECTORY_URL: server.baseUrl, DIRECTORY_API_KEY: server.key },
      ...overrides,
    };
    return { io, out, err };
  };

  it('says on stderr what it waits for after a 429; --no-retry fails at once', async () => {
    let calls = 0;
    // the first answer a 429 with Retry-After: 1, then the service's own
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (++calls > 1) return globalThis.fetch(input, init);
      return new Response(
        JSON.stringify({
          success: false,
          error: 'Too Many Requests',
          details: ['Rate limit: 5 requests per 60 s'],
        }),
        { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' } },
      );
    };
    const waited = capture({ fetch });
    expect(await run(['tasks', 'list', '--limit', '1'], waited.io)).toBe(0);
    expect(waited.err.join('')).toMatch(
      /^waiting 1 s before sending GET \/api\/discovery\/tasks again \(try 2 of 4\): 429 Too Many Requests: Rate limit: 5 requests per 60 s \(--no-retry fails at once\)\n$/,
    );
    calls = 0;
    const once = capture({ fetch });
    const started = Date.now();
    expect(await run(['tasks', 'list', '--limit', '1', '--no-retry'], once.io)).toBe(2);
    expect(Date.now() - started).toBeLessThan(900);
    expect(calls).toBe(1);
    expect(once.err.join('')).toBe('error: 429 Too Many Requests: Rate limit: 5 requests per 60 s\n');
  });

  it('returns the exit code and writes to the given streams', async () => {
    const { io, out, err } = capture();
    expect(await run(['get', 'no-such-project-slug'], io)).toBe(1);
    expect(err).toEqual(['error: Project with slug "no-such-project-slug" not found\n']);
    expect(await run(['tasks', 'list', '--limit', '1', '--json'], io)).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ success: true, total: expect.any(Number) });
  });

  it('an import the server stops answering mid-way is exit 2, saying how far it got', async () => {
    let upserts = 0;
    // The first batch reaches the server; every later request fails as a broken server would.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (++upserts === 1) return globalThis.fetch(input, init);
      const body = { success: false, error: 'Internal server error', details: ['Something broke'] };
      return new Response(JSON.stringify(body), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    };
    const projects = Array.from({ length: 150 }, () => project());
    const { io, out, err } = capture({ fetch, stdin: Readable.from([ndjson(projects)]) });
    expect(await run(['import', '-'], io)).toBe(2);
    expect(out).toEqual([]);
    expect(err).toEqual([
      'batch 1: 100 items, 100 done: 100 created, 0 updated, 0 failed\n',
      'stopped after 1 batch: 100 created, 0 updated, 0 failed\n',
      'error: 500 Internal server error: Something broke\n',
    ]);
    expect((await server.call('GET', `/api/projects/${slugOf(projects[99]!)}`)).status).toBe(200);
    expect((await server.call('GET', `/api/projects/${slugOf(projects[100]!)}`)).status).toBe(404);
  }, 30_000);
});
