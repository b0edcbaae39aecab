import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

// Where a page's details come from (docs/search.md#the-engine-a-search-costs-what-it-returns):
// the read model's detail cache. The database is read only for a project the cache does not
// hold: every such read fills the cache (DetailCache.fill), so the fills a page causes are its
// database reads of details.

describe.each(targets)('the details of a page on $name', (target) => {
  const s = useServer(target);
  const fills: string[] = [];
  const slugs: string[] = [];
  let restore: (() => void) | undefined;
  const inputs = ['Ledgerline Alpha', 'Ledgerline Beta', 'Ledgerline Gamma'].map((name) =>
    project({ name, description: `The ${name} project.` }),
  );
  beforeAll(async () => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: inputs } });
    expect(r.status).toBe(200);
    slugs.push(...r.json.results.map((x: { slug: string }) => x.slug));
    const details = s.readModel.details;
    const fill = details.fill.bind(details);
    details.fill = (body, since) => {
      fills.push(body.slug);
      return fill(body, since);
    };
    restore = () => {
      details.fill = fill;
    };
  });
  afterAll(() => restore?.());

  it('a page, a related list and a project shown before read nothing from the database', async () => {
    // shown once (what the write left out of the cache is read now)
    expect((await s.call('GET', '/api/projects?q=ledgerline&limit=3', { key: false })).status).toBe(200);
    fills.length = 0;
    // other addresses (an answer asked again would be the kept one, response-cache.ts)
    for (const url of [
      '/api/projects?q=ledgerline&limit=3&sort=relevance',
      '/api/projects?q=ledgerline&limit=2&facets=tags',
      `/api/projects/${slugs[0]}`,
      `/api/projects/${slugs[1]}/related`,
    ]) {
      const r = await s.call('GET', url, { key: false });
      expect(r.status, url).toBe(200);
    }
    expect(fills).toEqual([]);
  });

  it('after a write, a page reads the written project once: its details are not kept from the write', async () => {
    const r = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...inputs[0], description: 'The Ledgerline Alpha project, described again.' }] },
    });
    expect(r.status).toBe(200);
    expect(r.json.results[0]).toMatchObject({ action: 'updated', slug: slugs[0] });
    fills.length = 0;
    for (const url of [
      '/api/projects?q=ledgerline&limit=3',
      '/api/projects?q=ledgerline&limit=3&typos=true',
    ]) {
      const page = await s.call('GET', url, { key: false });
      expect(page.status, url).toBe(200);
      const alpha = page.json.projects.find((x: { slug: string }) => x.slug === slugs[0]);
      expect(alpha.description).toBe('The Ledgerline Alpha project, described again.');
    }
    expect(fills).toEqual([slugs[0]]);
  });
});
