import { describe, expect, it } from 'vitest';
import { readNdjson } from './export-helpers.ts';
import { type Client, project, slugOf, startServer, type TestServer, targets, useServer } from './helpers.ts';

/**
 * Restore from an export (docs/operating.md#restore-from-an-export): an export's lines written
 * into an empty directory give the same answers (endpoint 2, the list, aliases); a directory
 * that is not empty, a bad line and a wrong key change nothing. The export is GET /api/export's,
 * whose lines carry the slugs merged into each project (`aliases`).
 */
describe.each(targets)('restore from an export on $name', (target) => {
  const source = useServer(target, {}, 120_000);

  const ok = async (c: Client, method: string, path: string, body?: unknown) => {
    const r = await c.call(method, path, body === undefined ? {} : { body });
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.json;
  };

  /** Every project of `c` as endpoint 2 answers it (text and parsed), by slug. */
  async function answers(c: Client): Promise<Map<string, { text: string; json: any }>> {
    const out = new Map<string, { text: string; json: any }>();
    let cursor: string | undefined;
    do {
      const page = await ok(
        c,
        'GET',
        `/api/projects?sort=created&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      for (const item of page.projects) {
        const r = await c.call('GET', `/api/projects/${encodeURIComponent(item.slug)}`);
        out.set(item.slug, { text: r.text, json: r.json.data });
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }

  let exported: any;
  const header = (count: number) => ({ ...exported, count });

  let lines: any[] = [];
  let mergedSlug = '';
  let keptSlug = '';

  it('builds an export of a directory with locks, signals, archived, merged and deleted projects', async () => {
    const ps = [
      project({ signals: { stars: 12, downloads: 3400 }, content: '# 标题\n\n正文 with **markdown**' }),
      project({ status: 'ARCHIVED', tags: [{ name: `无英文标签 ${Date.now()}` }] }),
      project({ links: [{ type: 'PAPER', url: `https://arxiv.org/abs/${Date.now()}`, title: 'The paper' }] }),
      project(),
      project(),
    ];
    await ok(source, 'POST', '/api/webhook/projects', { projects: ps });
    const [a, , , d, e] = ps.map(slugOf);
    await ok(source, 'PUT', `/api/projects/${a}/lock`, { fields: ['name', 'tags'], reason: '编辑审定' });
    await ok(source, 'POST', `/api/projects/${d}/merge`, { into: a });
    await ok(source, 'DELETE', `/api/projects/${e}`);
    mergedSlug = d!;
    keptSlug = a!;
    const r = await source.call('GET', '/api/export?format=ndjson');
    expect(r.status, r.text).toBe(200);
    const { header: head, projects } = readNdjson(r.text);
    exported = head;
    // exactly endpoint 2's answers, in id order, each with the slugs merged into it
    const byId = [...(await answers(source)).values()]
      .map((x) => ({ ...x.json, aliases: x.json.slug === keptSlug ? [mergedSlug] : [] }))
      .sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(JSON.stringify(projects)).toBe(JSON.stringify(byId));
    lines = projects;
    expect(lines).toHaveLength(3);
  });

  describe('into an empty directory', () => {
    let target2: TestServer;
    it('refuses a bad line with its number, and writes nothing of any batch', async () => {
      target2 = await startServer(target);
      const bad = lines.map((l, i) => (i === 1 ? { ...l, description: 'short' } : l));
      const r = await target2.call('POST', '/api/restore', {
        body: { header: header(3), firstLine: 2, projects: bad, done: true },
      });
      expect(r.status, r.text).toBe(400);
      expect(r.json.details).toEqual([
        'line 3: description: Too small: expected string to have >=10 characters',
      ]);
      const unknown = await target2.call('POST', '/api/restore', {
        body: { header: header(3), firstLine: 2, projects: [{ ...lines[0], extra: 1 }] },
      });
      expect([unknown.status, unknown.json.details[0]]).toEqual([
        400,
        'line 2: body: Unrecognized key: "extra"',
      ]);
      const state = await ok(target2, 'GET', '/api/restore');
      expect(state.data).toEqual({
        state: 'none',
        restore: null,
        contents: { projects: 0, deleted: 0, aliases: 0, tags: 0 },
      });
    });

    it('needs keys:admin: 401 without a key, 403 with another scope', async () => {
      const body = { header: header(3), firstLine: 2, projects: lines.slice(0, 1) };
      expect((await target2.call('POST', '/api/restore', { body, key: false })).status).toBe(401);
      const writer = await ok(target2, 'POST', '/api/keys', { name: 'writer', scopes: ['projects:write'] });
      const r = await target2.call('POST', '/api/restore', { body, key: writer.data.key });
      expect([r.status, r.json.details[0]]).toEqual([403, 'scope: this key lacks "keys:admin"']);
      expect((await target2.call('GET', '/api/restore', { key: writer.data.key })).status).toBe(403);
    });

    it('restores in batches, resumes, and answers as the source did', async () => {
      const h = header(3);
      const first = await ok(target2, 'POST', '/api/restore', {
        header: h,
        firstLine: 2,
        projects: lines.slice(0, 2),
      });
      expect(first.data).toMatchObject({ restored: 2, received: 2, expected: 3, finished: false });
      // unfinished: detectable, and refusing another export and a repeated batch
      const state = await ok(target2, 'GET', '/api/restore');
      expect(state.data).toMatchObject({
        state: 'unfinished',
        restore: { received: 2, lastId: lines[1].id },
      });
      const other = await target2.call('POST', '/api/restore', {
        body: { header: { ...h, cursor: 'another' }, firstLine: 4, projects: lines.slice(2) },
      });
      expect([other.status, other.json.details[0]]).toEqual([
        409,
        expect.stringContaining('A restore of another export is unfinished'),
      ]);
      const again = await target2.call('POST', '/api/restore', {
        body: { header: h, firstLine: 3, projects: lines.slice(1, 2) },
      });
      expect([again.status, again.json.details[0]]).toEqual([
        409,
        `line 3: id: "${lines[1].id}" is not after "${lines[1].id}" (an export is in id order, each id once)`,
      ]);
      const last = await ok(target2, 'POST', '/api/restore', {
        header: h,
        firstLine: 4,
        projects: lines.slice(2),
        done: true,
      });
      expect(last.data).toMatchObject({ restored: 1, received: 3, finished: true });

      const before = await answers(source);
      const after = await answers(target2);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [slug, { text }] of before) expect(after.get(slug)?.text, slug).toBe(text);
      const list = (c: Client) => ok(c, 'GET', '/api/projects?sort=name&limit=100');
      expect((await list(target2)).projects).toEqual((await list(source)).projects);
      // the merged project's slug still leads to the project it went into
      const moved = await target2.call('GET', `/api/projects/${mergedSlug}`);
      expect([moved.status, moved.headers.get('location')]).toEqual([301, `/api/projects/${keptSlug}`]);
      // one revision each, saying it was restored
      const revs = await ok(target2, 'GET', `/api/projects/${keptSlug}/revisions`);
      expect(revs.revisions).toHaveLength(1);
      expect(revs.revisions[0]).toMatchObject({ revision: 1, action: 'created', via: 'import-restore' });
      expect(revs.revisions[0].summary).toMatch(/^restored from the export as of /);
      // the feed carries them: other processes and feed readers learn of the restore
      const feed = await ok(target2, 'GET', '/api/changes?limit=100');
      const created = feed.changes.filter((c: any) => c.type === 'project.created').map((c: any) => c.slug);
      expect(created.sort()).toEqual([...before.keys()].sort());
    });

    it('refuses a second restore, and changes nothing', async () => {
      const r = await target2.call('POST', '/api/restore', {
        body: { header: header(3), firstLine: 2, projects: lines },
      });
      expect([r.status, r.json.details[0]]).toEqual([
        409,
        expect.stringContaining('The directory was restored from'),
      ]);
      expect((await ok(target2, 'GET', '/api/restore')).data.state).toBe('finished');
      await target2.close();
    });
  });

  it('refuses a directory that is not empty with what it holds, and changes nothing', async () => {
    const before = await answers(source);
    const r = await source.call('POST', '/api/restore', {
      body: { header: header(3), firstLine: 2, projects: lines, done: true },
    });
    expect(r.status, r.text).toBe(409);
    expect(r.json.details).toEqual([
      expect.stringMatching(
        /^The directory is not empty: it holds 3 projects, 2 deleted or merged projects \(their history\), 1 aliases and \d+ tags; a restore goes only into an empty directory$/,
      ),
    ]);
    const after = await answers(source);
    expect([...after.entries()].map(([k, v]) => [k, v.text])).toEqual(
      [...before.entries()].map(([k, v]) => [k, v.text]),
    );
    expect((await ok(source, 'GET', '/api/restore')).data.state).toBe('none');
  });
});
