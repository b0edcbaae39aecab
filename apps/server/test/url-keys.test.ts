import { urlKey } from '@directory/core/server';
import { backfillUrlKeys } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

describe.each(targets)('url keys on $name', (target) => {
  const s = useServer(target);
  const query = async (text: string, values: unknown[] = []) => (await s.db.pool.query(text, values)).rows;

  it('stores each url exactly as sent, its key beside it', async () => {
    const url = `https://www.GitHub.com/Key${Date.now()}/Repo.git?utm_source=x`;
    const p = project({ links: [{ type: 'CODEHOST', url }] });
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    expect(await query('select url, url_key from links where url = $1', [url])).toEqual([
      { url, url_key: urlKey(url) },
    ]);
  });

  it('an update by another spelling keeps the link row and stores the new spelling', async () => {
    const owner = `Spell${Date.now()}`;
    const p = project({ links: [{ type: 'CODEHOST', url: `https://github.com/${owner}/Repo` }] });
    const first = await s.call('POST', '/api/webhook/projects', { body: { projects: [p], results: true } });
    const [before] = await query('select id from links where url_key = $1', [urlKey(p.links[0]!.url)]);
    const respelled = {
      ...p,
      links: [{ type: 'CODEHOST', url: `http://github.com/${owner.toLowerCase()}/repo.git` }],
    };
    const second = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [respelled], results: true },
    });
    expect(second.json.results[0]).toMatchObject({ action: 'updated', id: first.json.results[0].id });
    const detail = await s.call('GET', `/api/projects/${first.json.results[0].slug}`, { key: false });
    expect(detail.json.data.links).toEqual([
      { id: before.id, type: 'CODEHOST', url: respelled.links[0]!.url, title: null },
    ]);
  });

  it('an input listing one key twice (two spellings) is refused, naming both', async () => {
    const p = project({
      links: [
        { type: 'CODEHOST', url: 'https://github.com/a/b' },
        { type: 'WEBSITE', url: 'https://github.com/A/B/' },
      ],
    });
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    expect(r.json).toMatchObject({ failed: 1 });
    expect(r.json.errors[0].error).toBe(
      'links.1.url: The url "https://github.com/A/B/" is listed twice (as "https://github.com/a/b" at links.0.url)',
    );
  });

  it('the backfill keys older rows; a key an older row has is marked taken, never matched', async () => {
    const stamp = Date.now();
    const a = project({ links: [{ type: 'CODEHOST', url: `https://github.com/Old${stamp}/Repo` }] });
    const b = project({ links: [{ type: 'WEBSITE', url: `https://old${stamp}.example.org/` }] });
    const written = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [a, b], results: true },
    });
    const [idA] = written.json.results.map((r: { id: string }) => r.id);
    const taskUrl = `https://old${stamp}.example.org/task`;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: taskUrl }] } });
    // Rows as a database from before url keys holds them: two spellings of one key in one
    // project, two tasks of one key, and no keys at all.
    await query(
      `insert into links (id, project_id, type, url, title, position)
       values ('old-link-${stamp}', $1, 'CODEHOST', $2, null, 5)`,
      [idA, `http://github.com/old${stamp}/repo.git`],
    );
    await query(
      `insert into discovery_tasks (id, source_url, created_at) values ('old-task-${stamp}', $1, now() + interval '1 hour')`,
      [taskUrl.replace('https://', 'http://')],
    );
    await query('update links set url_key = null where url like $1', [`%${stamp}%`]);
    await query('update discovery_tasks set url_key = null where source_url like $1', [`%${stamp}%`]);

    const filled = await backfillUrlKeys(s.db.db, urlKey);
    expect(filled).toBeGreaterThanOrEqual(5);
    const key = `github.com/old${stamp}/repo`;
    expect(
      await query('select id, url_key from links where url like $1 order by position', [`%Old${stamp}%`]),
    ).toEqual([{ id: expect.any(String), url_key: key }]);
    expect(await query('select url_key from links where id = $1', [`old-link-${stamp}`])).toEqual([
      { url_key: `${key} taken-by old-link-${stamp}` },
    ]);
    expect(await query('select url_key from discovery_tasks where id = $1', [`old-task-${stamp}`])).toEqual([
      { url_key: `${urlKey(taskUrl)} taken-by old-task-${stamp}` },
    ]);
    expect(await query('select count(*)::int as n from links where url_key is null')).toEqual([{ n: 0 }]);
    // The first holder still matches; running it again changes nothing.
    const check = await s.call('POST', '/api/discovery/check-duplicates', {
      body: { urls: [`https://github.com/old${stamp}/repo`] },
    });
    expect(check.json.results[0]).toMatchObject({
      reason: 'Project already exists',
      matchedUrl: a.links[0]!.url,
    });
    expect(await backfillUrlKeys(s.db.db, urlKey)).toBe(0);
  });
});
