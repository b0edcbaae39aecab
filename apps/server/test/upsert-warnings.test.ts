import { describe, expect, it } from 'vitest';
import { project, slugOf, targets, uniqueUrl, useServer } from './helpers.ts';

const WARNING = "matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's";

type Result = { index: number; action: string; id: string | null; slug: string | null; warnings?: string[] };
type RevisionItem = { revision: number; via: string; warnings?: string[] };

/**
 * Updates that may be wrong say so (docs/curation.md#updates-that-may-be-wrong): an upsert (endpoint 1
 * or 8) that finds its project by slug only while both sides have CODEHOST (or WEBSITE) links whose
 * keys differ still updates it, and its result and its revision carry the warning; nothing else does.
 */
describe.each(targets)('upsert warnings on $name', (target) => {
  const s = useServer(target, {}, 120_000);

  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.failed, r.text).toBe(0);
    return r.json.results as Result[];
  };
  const revisions = async (slug: string) => {
    const r = await s.call('GET', `/api/projects/${slug}/revisions`);
    expect(r.status, r.text).toBe(200);
    return r.json.revisions as RevisionItem[];
  };
  const codehost = (url: string) => ({ type: 'CODEHOST', url });
  const website = (url: string) => ({ type: 'WEBSITE', url });

  it('a slug-only match whose CODEHOST differs: updated, with the warning on the item and the revision', async () => {
    const p = project();
    const [created] = await upsert([p]);
    expect(created).toEqual({ index: 0, action: 'created', id: expect.any(String), slug: slugOf(p) });

    const other = {
      ...p,
      description: 'Another repository under the same name.',
      links: [codehost(uniqueUrl('gh'))],
    };
    const [updated] = await upsert([other]);
    expect(updated).toEqual({ ...created, action: 'updated', warnings: [WARNING] });
    // the update happened as every update does: the links are the input's
    const now = (await s.call('GET', `/api/projects/${slugOf(p)}`)).json.data;
    expect(now.links.map((l: { url: string }) => l.url)).toEqual([other.links[0]!.url]);

    const revs = await revisions(slugOf(p));
    expect(revs.map((r) => [r.revision, r.via, r.warnings])).toEqual([
      [2, 'upsert', [WARNING]],
      [1, 'upsert', undefined],
    ]);
    // absent, not null or [], where there is none
    expect(Object.keys(revs[1]!)).not.toContain('warnings');
    const one = await s.call('GET', `/api/projects/${slugOf(p)}/revisions/2`);
    expect(one.json.data.warnings).toEqual([WARNING]);
    expect(
      Object.keys((await s.call('GET', `/api/projects/${slugOf(p)}/revisions/1`)).json.data),
    ).not.toContain('warnings');
  });

  it('WEBSITE links that differ warn too; a CODEHOST on one side and a WEBSITE on the other do not', async () => {
    const p = project({ links: [website(uniqueUrl('site'))] });
    await upsert([p]);
    const [w] = await upsert([{ ...p, links: [website(uniqueUrl('site'))] }]);
    expect(w!.warnings).toEqual([WARNING]);

    const q = project({ links: [codehost(uniqueUrl('gh'))] });
    await upsert([q]);
    const [crossed] = await upsert([{ ...q, links: [website(uniqueUrl('site'))] }]);
    expect(crossed!.action).toBe('updated');
    expect(crossed).not.toHaveProperty('warnings');
  });

  it('no warning when a side has no CODEHOST or WEBSITE link, or a url key found the project', async () => {
    // the stored project has only a paper
    const bare = project({ links: [{ type: 'PAPER', url: uniqueUrl('paper') }] });
    await upsert([bare]);
    const [a] = await upsert([{ ...bare, links: [codehost(uniqueUrl('gh')), website(uniqueUrl('site'))] }]);
    expect(a).toMatchObject({ action: 'updated' });
    expect(a).not.toHaveProperty('warnings');
    // the input has none
    const [b] = await upsert([{ ...bare, links: [{ type: 'MODELHUB', url: uniqueUrl('model') }] }]);
    expect(b).not.toHaveProperty('warnings');

    // found by its CODEHOST key (another spelling, another name, so another slug): no warning
    const p = project();
    await upsert([p]);
    const respelt = p.links[0]!.url.replace('https://github.com/', 'http://www.GitHub.com/');
    const [c] = await upsert([
      { ...p, nameEn: `${p.nameEn} Renamed`, links: [codehost(respelt), p.links[1]] },
    ]);
    expect(c).toMatchObject({ action: 'updated', slug: slugOf(p) });
    expect(c).not.toHaveProperty('warnings');
    // found by its WEBSITE key, its CODEHOST another: no warning
    const [d] = await upsert([{ ...p, links: [codehost(uniqueUrl('gh')), website(p.links[1]!.url)] }]);
    expect(d).toMatchObject({ action: 'updated', slug: slugOf(p) });
    expect(d).not.toHaveProperty('warnings');

    for (const slug of [slugOf(bare), slugOf(p)])
      for (const r of await revisions(slug))
        expect(r, `${slug} ${r.revision}`).not.toHaveProperty('warnings');
  });

  it('a batch mixing the cases: only the slug-only item with other links warns, in order', async () => {
    const a = project();
    const b = project();
    await upsert([b]);
    const results = await upsert([
      a, // created
      { ...a, links: [codehost(uniqueUrl('gh'))] }, // a again by slug only, another repository: warns
      { ...b, description: 'Found by its url, as before.' }, // by url key
      { ...b, links: [website(b.links[1]!.url)] }, // by its WEBSITE key
      project(), // created
    ]);
    expect(results.map((r) => [r.index, r.action, r.warnings])).toEqual([
      [0, 'created', undefined],
      [1, 'updated', [WARNING]],
      [2, 'updated', undefined],
      [3, 'updated', undefined],
      [4, 'created', undefined],
    ]);
    for (const r of results.filter((r) => r.index !== 1)) expect(r).not.toHaveProperty('warnings');
    // a's revisions: created, then the warned update (each item of a batch stores its own revision)
    expect((await revisions(slugOf(a))).map((r) => [r.revision, r.warnings])).toEqual([
      [2, [WARNING]],
      [1, undefined],
    ]);
  });

  it('endpoint 8: a complete that finds its project by slug only with other links says so too', async () => {
    const p = project();
    await upsert([p]);
    const sourceUrl = uniqueUrl('task');
    const made = await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl }] } });
    expect(made.status, made.text).toBe(200);
    const tasks = (await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=100')).json.tasks as {
      id: string;
      sourceUrl: string;
    }[];
    const taskId = tasks.find((t) => t.sourceUrl === sourceUrl)!.id;
    const links = [codehost(uniqueUrl('gh'))];
    const done = await s.call('POST', `/api/discovery/tasks/${taskId}/complete`, {
      body: { explorationData: { ...p, links } },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ action: 'updated', slug: slugOf(p), warnings: [WARNING] });
    const [latest] = await revisions(slugOf(p));
    expect(latest).toMatchObject({ revision: 2, via: 'complete', warnings: [WARNING] });

    // a complete found by its url key: no warning
    const again = uniqueUrl('task');
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: again }] } });
    const id2 = (
      (await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=100')).json.tasks as {
        id: string;
        sourceUrl: string;
      }[]
    ).find((t) => t.sourceUrl === again)!.id;
    const plain = await s.call('POST', `/api/discovery/tasks/${id2}/complete`, {
      body: { explorationData: { ...p, description: 'Found by its repository this time.', links } },
    });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.json.action).toBe('updated');
    expect(plain.json).not.toHaveProperty('warnings');
  });
});
