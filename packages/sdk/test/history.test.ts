import { project, slugOf, startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, run } from '../src/cli/run.ts';
import { createDirectoryClient, DirectoryError, type ProjectInput } from '../src/index.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ postgres: false });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** The CLI in this process, its output captured; `tty` makes stdout a terminal. */
async function cli(
  args: string[],
  env: Record<string, string> = {},
  tty = false,
  fetch?: typeof globalThis.fetch,
) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: (async function* () {})(),
    stdout: { write: (s: string) => (stdout += s), isTTY: tty },
    stderr: { write: (s: string) => (stderr += s) },
    env: { DIRECTORY_URL: server.baseUrl, DIRECTORY_API_KEY: server.key, ...env },
    ...(fetch && { fetch }),
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}

describe('history in the SDK and the CLI', () => {
  it('SDK: revisions, diff, revert, lock/unlock, deleted, restore; the actor is sent', async () => {
    const client = createDirectoryClient({ baseUrl: server.baseUrl, apiKey: server.key, actor: '编辑 Ann' });
    const raw = project();
    const p = raw as ProjectInput;
    const slug = slugOf(raw);
    await client.projects.upsert({ projects: [p] });
    await client.projects.upsert({ projects: [{ ...p, description: 'Changed by the SDK test.' }] });
    const { revisions } = await client.projects.revisions({ slug });
    expect(revisions.map((r) => [r.revision, r.via, r.actor])).toEqual([
      [2, 'upsert', '编辑 Ann'],
      [1, 'upsert', '编辑 Ann'],
    ]);
    const one = await client.projects.revision({ slug, revision: 1 });
    expect(one.data.project.description).toBe(p.description);
    const diff = await client.projects.diff({ slug, revision: 2 });
    expect(diff.changed.description).toEqual({ from: p.description, to: 'Changed by the SDK test.' });
    const reverted = await client.projects.revert({ slug, revision: 1 });
    expect(reverted).toMatchObject({ revision: 3, data: { description: p.description } });
    const locked = await client.projects.lock({ slug, fields: ['tags'], reason: 'why not' });
    expect(locked.data.lock).toMatchObject({ fields: ['tags'], reason: 'why not' });
    expect((await client.projects.unlock({ slug })).data.lock).toBeNull();
    const { data } = await client.projects.get({ slug });
    await client.projects.delete({ slug });
    const deleted = await client.projects.deleted({ limit: 100 });
    expect(deleted.projects.map((d) => d.id)).toContain(data.id);
    const restored = await client.projects.restore({ id: data.id });
    expect(restored.data.slug).toBe(slug);
    await expect(client.projects.restore({ id: data.id })).rejects.toBeInstanceOf(DirectoryError);
  });

  it('CLI: history (a table), diff (coloured on a terminal), revert, lock, unlock; DIRECTORY_ACTOR', async () => {
    const raw = project({ source: 'cli-test' });
    const p = raw as ProjectInput;
    const slug = slugOf(raw);
    const actor = { DIRECTORY_ACTOR: 'cli-bot' };
    await createDirectoryClient({
      baseUrl: server.baseUrl,
      apiKey: server.key,
      actor: 'cli-bot',
    }).projects.upsert({
      projects: [p, { ...p, name: '改过的名字', tags: [{ name: '新标签', nameEn: 'New tag' }] }],
    });

    const history = await cli(['history', slug]);
    expect(history.code, history.stderr).toBe(0);
    const lines = history.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^REV\s+AT\s+ACTION\s+VIA\s+ACTOR\s+SOURCE\s+TASK\s+NAME$/);
    expect(lines[1]).toMatch(
      /^2\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+updated\s+upsert\s+cli-bot\s+cli-test\s+-\s+改过的名字$/,
    );
    expect(lines[2]).toMatch(/^1\s+.*created\s+upsert\s+cli-bot/);

    const plain = await cli(['diff', slug]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`${slug}: revision 2 against 1\nname:\n  - ${p.name}\n  + 改过的名字\n`);
    expect(plain.stdout).toContain('tags:\n');
    expect(plain.stdout).toContain('  + 新标签 / New tag (new-tag)');
    expect(plain.stdout).not.toContain('\u001b[');
    const coloured = await cli(['diff', slug, '2', '1'], {}, true);
    expect(coloured.stdout).toContain('\u001b[31m- ');
    expect(coloured.stdout).toContain('\u001b[32m+ ');
    expect((await cli(['diff', slug, '2', '1'], { NO_COLOR: '1' }, true)).stdout).not.toContain('\u001b[');

    const revert = await cli(['revert', slug, '1'], actor);
    expect(revert).toMatchObject({
      code: 0,
      stdout: `Reverted ${slug} to revision 1's content (stored as revision 3)\n`,
    });
    const lock = await cli(['lock', slug, 'name', 'tags', '--reason', 'curated'], actor);
    expect(lock).toMatchObject({ code: 0, stdout: `Locked ${slug}: name, tags (curated)\n` });
    expect((await cli(['lock', slug, 'slug'])).code).toBe(2);
    expect((await cli(['unlock', slug], actor)).stdout).toBe(`Unlocked ${slug}\n`);
    const json = JSON.parse((await cli(['history', slug, '--json'])).stdout);
    expect(json.revisions.slice(0, 3).map((r: { via: string; actor: string }) => [r.via, r.actor])).toEqual([
      ['lock', 'cli-bot'],
      ['lock', 'cli-bot'],
      ['revert', 'cli-bot'],
    ]);
    const missing = await cli(['history', 'no-such-project']);
    expect(missing).toMatchObject({
      code: 1,
      stderr: 'error: Project with slug "no-such-project" not found\n',
    });
    expect((await cli(['revert', slug, '99'])).code).toBe(1);
    expect((await cli(['revert', slug, 'x'])).code).toBe(2);
  });

  it('CLI: history and diff of a merged slug show the project it was merged into', async () => {
    const client = createDirectoryClient({ baseUrl: server.baseUrl, apiKey: server.key });
    const [a, b] = [project(), project()];
    await client.projects.upsert({ projects: [a as ProjectInput, b as ProjectInput] });
    await client.projects.upsert({
      projects: [{ ...(b as ProjectInput), description: 'Changed once more.' }],
    });
    await client.projects.merge({ slug: slugOf(a), into: slugOf(b) });
    const byAlias = await cli(['history', slugOf(a)]);
    expect(byAlias.code, byAlias.stderr).toBe(0);
    // the merge is the newest line of the project kept
    expect(byAlias.stdout.split('\n')[1]).toMatch(
      new RegExp(`^3\\s.*updated\\s+merge\\s.*\\(merged in: ${slugOf(a)}\\)$`),
    );
    expect(byAlias.stdout).toBe((await cli(['history', slugOf(b)])).stdout);
    const diff = await cli(['diff', slugOf(a), '2', '1']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('description:\n');
    expect(diff.stdout).toContain('  + Changed once more.');
  });

  it('CLI: history has a WARNING column when a revision of the page carries warnings (docs/curation.md#updates-that-may-be-wrong)', async () => {
    const client = createDirectoryClient({ baseUrl: server.baseUrl, apiKey: server.key });
    const raw = project();
    const p = raw as ProjectInput;
    await client.projects.upsert({ projects: [p] });
    expect((await cli(['history', slugOf(raw)])).stdout.split('\n')[0]).not.toContain('WARNING');
    const elsewhere = {
      ...p,
      links: [{ type: 'CODEHOST' as const, url: `https://github.com/${slugOf(raw)}/other` }],
    };
    const reply = await client.projects.upsert({ projects: [elsewhere] });
    const warning = "matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's";
    expect(reply.results[0]!.warnings).toEqual([warning]);
    const page = await client.projects.revisions({ slug: slugOf(raw) });
    expect(page.revisions.map((r) => r.warnings)).toEqual([[warning], undefined]);
    const lines = (await cli(['history', slugOf(raw)])).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/\sNAME\s+WARNING$/);
    expect(lines[1]).toMatch(new RegExp(`^2\\s.*upsert\\s.*${warning.replace(/[/;']/g, '.')}$`));
    expect(lines[2]).toMatch(/^1\s.*\s-$/);
  });

  it('CLI: --summary is recorded (percent-encoded), and history has a SUMMARY column only when a revision of the page has one', async () => {
    const raw = project();
    const slug = slugOf(raw);
    await createDirectoryClient({ baseUrl: server.baseUrl, apiKey: server.key }).projects.upsert({
      projects: [raw as ProjectInput],
    });
    const before = await cli(['history', slug]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout.split('\n')[0]).not.toContain('SUMMARY');
    const why = '名字由编辑核对 (checked by hand)';
    const locked = await cli(['lock', slug, 'name', '--summary', why]);
    expect(locked.code, locked.stderr).toBe(0);
    const after = await cli(['history', slug]);
    expect(after.code, after.stderr).toBe(0);
    const [head, newest, oldest] = after.stdout.split('\n');
    expect(head).toMatch(/\sNAME\s+SUMMARY$/);
    expect(newest).toMatch(new RegExp(`^2\\s.*updated\\s+lock\\s.*\\s${why.replace(/[()]/g, '\\$&')}$`));
    expect(oldest).toMatch(/^1\s.*\s-$/);
  });

  it('CLI: an answer it cannot read is a clean error, not a crash', async () => {
    const reply =
      (body: unknown, status = 200) =>
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    // another route's answer (a server that redirects a sub-path to the project itself)
    const wrongShape = await cli(['history', 'x'], {}, false, reply({ success: true, data: { slug: 'x' } }));
    expect(wrongShape.code).toBe(2);
    expect(wrongShape.stderr).toMatch(
      /^error: the answer of GET \/api\/projects\/x\/revisions from http:\/\/\S+ could not be read/,
    );
    expect(wrongShape.stderr).not.toContain('Cannot read properties');
    // the same from --json: followed to another route is not this route's answer
    const redirected = async () => {
      const res = new Response(JSON.stringify({ success: true, data: { slug: 'y' } }));
      Object.defineProperties(res, {
        redirected: { value: true },
        url: { value: `${server.baseUrl}/api/projects/y` },
      });
      return res;
    };
    const json = await cli(['history', 'x', '--json'], {}, false, redirected);
    expect(json).toMatchObject({ code: 2, stdout: '' });
    expect(json.stderr).toMatch(
      /^error: the answer of GET \/api\/projects\/x\/revisions from \S+ could not be read/,
    );
    for (const body of [[], 'text', null, { success: true, revisions: [{}] }]) {
      const r = await cli(['diff', 'x'], {}, false, reply(body));
      expect(r.code, JSON.stringify(body)).toBe(2);
      expect(r.stderr).toMatch(/^error: the answer of GET \S+ from \S+ could not be read/);
    }
  });
});
