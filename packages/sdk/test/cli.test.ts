import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { project, slugOf } from '@directory/server/test/helpers';
import { describe, expect, it } from 'vitest';
import { type CliIo, run } from '../src/cli/run.ts';
import { expectOneErrorLine, ndjson, useCliServer } from './cli-server.ts';

/**
 * The CLI's project commands (get, delete, duplicates, merge, related) run as their own processes
 * against a test server (docs/getting-started.md#cli-directory), its usage and connection errors, and
 * `run` in-process with its streams and fetch given. `directory import` is in cli-import.test.ts,
 * `tasks` and `check` in cli-tasks.test.ts, progress and input reading in cli-input.test.ts.
 */

const { server, cli, file } = useCliServer();

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
