import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, useServer } from './helpers.ts';

/** Edit summaries: X-Directory-Summary on every write, recorded on its revisions (docs/curation.md#edit-summaries). */
describe.each(targets)('edit summaries on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const revisions = async (slug: string) =>
    (await s.call('GET', `/api/projects/${slug}/revisions`)).json.revisions as {
      revision: number;
      via: string;
      summary: string | null;
    }[];

  it('records the summary (percent-encoded UTF-8) on the revisions of the write, else null', async () => {
    const p = project();
    const slug = slugOf(p);
    const why = '从官网补全了描述 (filled in from the website)';
    const r = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [p] },
      headers: { 'x-directory-summary': encodeURIComponent(why) },
    });
    expect(r.status, r.text).toBe(200);
    const edit = await s.call('PATCH', `/api/projects/${slug}`, {
      body: { descriptionEn: 'An English description.' },
      headers: { 'x-directory-summary': 'typo fixed' },
    });
    expect(edit.status, edit.text).toBe(200);
    const lock = await s.call('PUT', `/api/projects/${slug}/lock`, { body: { fields: ['name'] } });
    expect(lock.status, lock.text).toBe(200);
    const revs = await revisions(slug);
    expect(revs.map((x) => [x.via, x.summary])).toEqual([
      ['lock', null],
      ['edit', 'typo fixed'],
      ['upsert', why],
    ]);
    const one = await s.call('GET', `/api/projects/${slug}/revisions/2`);
    expect(one.json.data.summary).toBe('typo fixed');
  });

  it('400 for more than 500 characters or a hidden character, and nothing is written', async () => {
    const p = project();
    for (const bad of [
      'x'.repeat(501),
      encodeURIComponent('ok\u202Eevil'),
      encodeURIComponent('line\nbreak'),
    ]) {
      const r = await s.call('POST', '/api/webhook/projects', {
        body: { projects: [p] },
        headers: { 'x-directory-summary': bad },
      });
      expect(r.status, r.text).toBe(400);
      expect(r.json.details[0]).toMatch(/^header X-Directory-Summary: /);
    }
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`)).status).toBe(404);
    const ok = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [p] },
      headers: { 'x-directory-summary': 'y'.repeat(500) },
    });
    expect(ok.status, ok.text).toBe(200);
  });
});
