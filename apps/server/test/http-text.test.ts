import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

// Text PostgreSQL would change or refuse (the rest of HTTP behaviour in http.test.ts).
describe.each(targets)('HTTP behaviour on $name', (target) => {
  const s = useServer(target);

  const upsert = (body: unknown, key?: string | false) =>
    s.call('POST', '/api/webhook/projects', { body, key });

  describe('text PostgreSQL would change or refuse', () => {
    it('refuses lone surrogates anywhere with 400, never a 500', async () => {
      const cases: [string, unknown, string][] = [
        [
          '/api/webhook/projects',
          { projects: [project({ tags: [{ name: 'x\ud800' }] })] },
          'projects.0.tags.0.name',
        ],
        [
          '/api/webhook/projects',
          { projects: [project({ description: 'ten chars \udc00' })] },
          'projects.0.description',
        ],
        [
          '/api/webhook/projects',
          {
            projects: [
              project({
                links: [
                  { type: 'WEBSITE', url: 'https://lone.example.org/a/\ud800' },
                  { type: 'PAPER', url: 'https://lone.example.org/a/\udc00' },
                ],
              }),
            ],
          },
          'projects.0.links.0.url',
        ],
        [
          '/api/discovery/tasks',
          { tasks: [{ sourceUrl: 'https://lone.example.org/\ud800' }] },
          'tasks.0.sourceUrl',
        ],
        ['/api/discovery/check-duplicates', { urls: ['\ud800'] }, 'urls.0'],
        ['/api/webhook/check-duplicates', { projects: [{ slug: '\ud800' }] }, 'projects.0.slug'],
      ];
      for (const [path, body, detail] of cases) {
        // JSON.stringify escapes a lone surrogate as \uXXXX, as a client would send it
        const r = await s.call('POST', path, { body });
        expect(r.status, path).toBe(400);
        expect(r.json.details[0].startsWith(`${detail}: `), r.text).toBe(true);
      }
    });

    it('refuses lone surrogates in PATCH explorationData values and keys', async () => {
      const url = `https://lone.example.org/task/${Date.now()}`;
      await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
      const { rows } = await s.db.pool.query('select id from discovery_tasks where source_url = $1', [url]);
      for (const explorationData of [{ note: '\ud800' }, { '\udc00': 1 }, { deep: [{ x: 'a\ud800b' }] }]) {
        const r = await s.call('PATCH', `/api/discovery/tasks/${rows[0].id}`, {
          body: { status: 'IN_PROGRESS', explorationData },
        });
        expect(r.status).toBe(400);
        expect(r.json.details[0]).toMatch(/^explorationData: /);
      }
    });

    it('keeps a tag whose name starts with U+FEFF usable', async () => {
      // PGlite's wire decoding drops a leading U+FEFF from text it returns
      const first = await upsert({ projects: [project({ tags: [{ name: '\ufeffbom-tag' }] })] });
      expect(first.json).toMatchObject({ created: 1, failed: 0 });
      const second = await upsert({ projects: [project({ tags: [{ name: '\ufeffbom-tag' }] })] });
      expect(second.json).toMatchObject({ created: 1, failed: 0 });
    });
  });
});
