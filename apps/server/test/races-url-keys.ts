import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { project, slugOf } from './helpers.ts';
import { N, type RacingServers } from './races-servers.ts';

/**
 * Races on url keys between the two processes of races.test.ts: twelve spellings of one repository
 * or task url (docs/curation.md#same-project-other-spelling) make one project or one task, and paths
 * that differ only by case on a case-sensitive host stay apart. Registered by races.test.ts.
 */

/**
 * Twelve spellings of one GitHub repository (docs/curation.md#same-project-other-spelling): one url key.
 */
function spellings(owner: string, repo: string): string[] {
  const escaped = `%${owner.charCodeAt(0).toString(16).toUpperCase()}${owner.slice(1)}`;
  return [
    `https://github.com/${owner}/${repo}`,
    `http://github.com/${owner.toLowerCase()}/${repo.toLowerCase()}.git`,
    `https://www.github.com/${owner}/${repo}/tree/main`,
    `https://github.com/${owner}/${repo}/`,
    `https://GitHub.com/${owner}/${repo}#readme`,
    `https://github.com/${owner}/${repo}?utm_source=feed`,
    `https://github.com:443/${owner}/${repo}`,
    `https://github.com/${owner}/${repo}/blob/main/README.md`,
    `https://github.com/${owner}/${repo}/issues`,
    `http://www.github.com/${owner.toUpperCase()}/${repo.toUpperCase()}`,
    `https://github.com/${owner}/${repo}.git/`,
    `https://github.com/${escaped}/${repo}`,
  ];
}

export function urlKeyRaces(c: RacingServers): void {
  it('makes twelve spellings of one repository, upserted at once by two processes, one project', async () => {
    const { race, query, sum, upsert } = c;
    const owner = `QwenLM${randomBytes(4).toString('hex')}`;
    const urls = spellings(owner, 'Qwen');
    expect(new Set(urls).size).toBe(N);
    // Different names too: no slug ties them, only the url key does.
    const inputs = urls.map((url, i) =>
      project({ nameEn: `Qwen ${owner} spelling ${i}`, links: [{ type: 'CODEHOST', url }] }),
    );
    const replies = await race((s, i) => upsert(s, [inputs[i]]));
    for (const r of replies) expect(r.json).toMatchObject({ success: true, processed: 1, failed: 0 });
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'updated')).toBe(N - 1);
    const holders = await query<{ project_id: string; url_key: string; n: number }>(
      'select project_id, url_key, count(*)::int as n from links where url = any($1::text[]) group by 1, 2',
      [urls],
    );
    expect(holders).toEqual([
      { project_id: expect.any(String), url_key: `github.com/${owner.toLowerCase()}/qwen`, n: 1 },
    ]);
    const projects = await query('select id from projects where slug = any($1::text[])', [
      inputs.map(slugOf),
    ]);
    expect(projects).toHaveLength(1);
  });

  it('makes twelve spellings of one task url, created at once by two processes, one task', async () => {
    const { race, query, sum } = c;
    const urls = spellings(`Task${randomBytes(4).toString('hex')}`, 'Repo');
    const replies = await race((s, i) =>
      s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: urls[i] }] } }),
    );
    expect(sum(replies, 'created')).toBe(1);
    expect(sum(replies, 'skipped')).toBe(N - 1);
    const rows = await query('select id from discovery_tasks where source_url = any($1::text[])', [urls]);
    expect(rows).toHaveLength(1);
  });

  it('keeps repositories whose paths differ only by case apart on a case-sensitive host', async () => {
    const { race, query, sum, upsert } = c;
    const base = `https://git.example.org/${randomBytes(4).toString('hex')}`;
    const inputs = Array.from({ length: N }, (_, i) =>
      project({
        links: [{ type: 'CODEHOST', url: i % 2 === 0 ? `${base}/Models/Foo` : `${base}/models/foo` }],
      }),
    );
    const replies = await race((s, i) => upsert(s, [inputs[i]]));
    expect(sum(replies, 'created')).toBe(2);
    const holders = await query<{ url: string }>(
      'select distinct project_id, url from links where url = any($1::text[]) order by url',
      [[`${base}/Models/Foo`, `${base}/models/foo`]],
    );
    expect(holders.map((h) => h.url)).toEqual([`${base}/Models/Foo`, `${base}/models/foo`]);
    expect(new Set(holders.map((h) => (h as unknown as { project_id: string }).project_id)).size).toBe(2);
  });
}
