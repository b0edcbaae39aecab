import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

/**
 * GET /api/projects/{slug}/related (docs/search.md#related-projects): ordering and explanations on
 * the sample data, the limit's bounds, aliases (301 keeping the path and query), 404s, deleted
 * projects left out, and answers as fresh as search after writes.
 */
const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Record<string, any>[];

interface Item {
  id: string;
  slug: string;
  related: { score: number; tags: string[]; words: string[]; owner: string | null };
}

describe.each(targets)('related projects on $name', (target) => {
  const s = useServer(target);
  beforeAll(async () => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: SAMPLE } });
    expect(r.status, r.text).toBe(200);
  });
  const related = (slug: string, query = '') =>
    s.call<{ success: boolean; projects: Item[]; details?: string[] }>(
      'GET',
      `/api/projects/${slug}/related${query}`,
      {
        key: false,
      },
    );

  it('lists the most alike first, each with why, in the shape of a list item', async () => {
    const r = await related('deepseek-v3');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('x-directory-position')).toEqual(expect.any(String));
    const { projects } = r.json;
    expect(projects).toHaveLength(6);
    // the other DeepSeek model: the same tags, the same GitHub organisation, the name's words
    expect(projects[0]).toMatchObject({
      slug: 'deepseek-r1',
      related: { tags: ['llm', 'open-source', 'chinese'], owner: 'github.com/deepseek-ai' },
    });
    expect(projects[0]!.related.words).toContain('deepseek');
    for (const [i, p] of projects.entries()) {
      expect(p.slug).not.toBe('deepseek-v3');
      expect(p.related.score).toBeGreaterThan(0);
      if (i > 0) {
        const prev = projects[i - 1]!;
        expect(
          prev.related.score > p.related.score || (prev.related.score === p.related.score && prev.id < p.id),
        ).toBe(true);
      }
    }
    // the same fields as GET /api/projects's items, `related` instead of `match`
    const list = await s.call('GET', `/api/projects?q=${projects[0]!.slug}&limit=1`, { key: false });
    const { match: _match, ...listed } = list.json.projects[0];
    const { related: _related, ...item } = projects[0]!;
    expect(item).toEqual(listed);
    expect(Object.keys(projects[0]!)).toEqual([...Object.keys(listed), 'related']);
  });

  it('takes limit 1 to 20 (default 6); anything else is a 400', async () => {
    expect((await related('qwen', '?limit=1')).json.projects).toHaveLength(1);
    const twenty = await related('qwen', '?limit=20');
    expect(twenty.json.projects.length).toBeGreaterThan(6);
    expect(twenty.json.projects.length).toBeLessThanOrEqual(20);
    expect((await related('qwen')).json.projects).toEqual(twenty.json.projects.slice(0, 6));
    for (const limit of ['0', '21', 'abc', '1.5', '']) {
      const r = await related('qwen', `?limit=${limit}`);
      expect(r.status, limit).toBe(400);
      expect(r.json).toMatchObject({ success: false, error: 'Validation error' });
      expect(r.json.details?.[0]).toMatch(/^limit: /);
    }
    const unknown = await related('qwen', '?limt=3');
    expect(unknown.status).toBe(400);
  });

  it('answers 404 for an unknown slug and 301 for a merged one, keeping the path and query', async () => {
    const missing = await related('no-such-project');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      success: false,
      error: 'Not Found',
      details: ['Project with slug "no-such-project" not found'],
    });
    const body = (name: string, url: string) => ({
      projects: [
        {
          name,
          description: 'A project to merge.',
          tags: [{ name: 'Merging' }],
          links: [{ type: 'CODEHOST', url }],
        },
      ],
    });
    const a = await s.call('POST', '/api/webhook/projects', {
      body: body('Merge From', 'https://github.com/m/a'),
    });
    const b = await s.call('POST', '/api/webhook/projects', {
      body: body('Merge Into', 'https://github.com/m/b'),
    });
    const [from, into] = [a.json.results[0].slug, b.json.results[0].slug];
    expect((await s.call('POST', `/api/projects/${from}/merge`, { body: { into } })).status).toBe(200);
    const moved = await related(from, '?limit=3');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/api/projects/${into}/related?limit=3`);
    expect((await related(from)).headers.get('location')).toBe(`/api/projects/${into}/related`);
    const followed = await related(into, '?limit=3');
    expect(followed.status).toBe(200);
    expect(followed.json.projects.map((p) => p.slug)).not.toContain(from);
  });

  it('is as fresh as search: a write shows in the next answer, a deleted project never does', async () => {
    const write = (name: string, description: string, url: string) =>
      s.call('POST', '/api/webhook/projects', {
        body: {
          projects: [
            { name, description, tags: [{ name: 'Freshness' }], links: [{ type: 'CODEHOST', url }] },
          ],
        },
      });
    const first = await write('Xylofresh', 'Quuxlemma.', 'https://github.com/fresh-org/one');
    const slug = first.json.results[0].slug;
    expect((await related(slug)).json.projects).toEqual([]);
    const second = await write('Wobbletwo', 'Quuxlemma!', 'https://github.com/Fresh-Org/two');
    const other = second.json.results[0].slug;
    const position = second.headers.get('x-directory-position');
    const after = await related(slug, `?minPosition=${encodeURIComponent(position!)}`);
    expect(after.status).toBe(200);
    expect(after.json.projects).toHaveLength(1);
    expect(after.json.projects[0]).toMatchObject({
      slug: other,
      related: { tags: ['freshness'], words: ['quuxlemma'], owner: 'github.com/fresh-org' },
    });
    // an update that takes the word and the owner away
    const updated = await write('Wobbletwo', 'Zzzzzzzzzz.', 'https://gitlab.com/fresh-org/two');
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.results[0], updated.text).toMatchObject({ slug: other, action: 'updated' });
    expect((await related(slug)).json.projects[0]?.related).toMatchObject({ words: [], owner: null });
    // deleted: gone from the list, and its own slug is a 404
    expect((await s.call('DELETE', `/api/projects/${other}`)).status).toBe(200);
    expect((await related(slug)).json.projects).toEqual([]);
    expect((await related(other)).status).toBe(404);
  });
});
