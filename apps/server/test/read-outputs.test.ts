import { readFileSync } from 'node:fs';
import { appRouter } from '@directory/core';
import { checkedOutputOf } from '@directory/core/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

/**
 * The reads of the read model do not validate their answers per request (trusted-output.ts):
 * here every such procedure's answers, over the shapes they take, are parsed with its real
 * output schema, and the parse must change nothing (no field missing, extra, or of another
 * shape). A procedure given a trusted output must be listed here.
 */
const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Record<string, any>[];

type ProcedureDef = { _def: { output?: unknown } };
const procedures = appRouter._def.procedures as unknown as Record<string, ProcedureDef>;
const trusted = Object.keys(procedures).filter(
  (path) => checkedOutputOf(procedures[path]!._def.output) !== procedures[path]!._def.output,
);

describe.each(targets)('answers of the read model match their schemas on $name', (target) => {
  const s = useServer(target);
  let slugs: string[] = [];
  beforeAll(async () => {
    const projects = SAMPLE.map((p, i) => (i % 7 === 3 ? { ...p, status: 'ARCHIVED' } : p));
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status).toBe(200);
    slugs = r.json.results.map((x: { slug: string }) => x.slug);
    const locked = await s.call('PUT', `/api/projects/${slugs[0]}/lock`, {
      body: { fields: ['name', 'tags'], reason: 'curated' },
    });
    expect(locked.status).toBe(200);
  });

  // [procedure, request paths]; `next` follows the first answer's nextCursor once more
  const cases: [string, () => string[]][] = [
    [
      'projects.get',
      () => [`/api/projects/${slugs[0]}`, `/api/projects/${slugs[1]}`, `/api/projects/${slugs[3]}`],
    ],
    [
      'projects.find',
      () => [
        '/api/projects',
        '/api/projects?limit=3&next',
        '/api/projects?include=content&status=ALL&sort=name&limit=50',
        `/api/projects?q=${encodeURIComponent('模型')}&facets=tags,status,linkTypes&limit=2&next`,
        `/api/projects?q=${encodeURIComponent('向量 数据库')}`,
        '/api/projects?q=tyqw&status=ARCHIVED',
        '/api/projects?q=difusion&include=content',
        '/api/projects?q=zzqqxx&facets=tags',
      ],
    ],
    [
      'projects.related',
      () => [`/api/projects/${slugs[0]}/related`, `/api/projects/${slugs[1]}/related?limit=20`],
    ],
    ['tags.find', () => ['/api/tags', '/api/tags?limit=2&next', `/api/tags?q=${encodeURIComponent('模型')}`]],
  ];

  it('lists every procedure whose output is trusted', () => {
    expect(trusted.sort()).toEqual(cases.map(([procedure]) => procedure).sort());
  });

  it.each(cases)('%s', async (procedure, paths) => {
    const schema = checkedOutputOf(procedures[procedure]!._def.output)!;
    let checked = 0;
    for (const path of paths()) {
      const [url, next] = path.endsWith('&next') ? [path.slice(0, -5), true] : [path, false];
      const first = await s.call('GET', url, { key: false });
      expect(first.status, url).toBe(200);
      const answers = [first.json];
      // the bytes written (render-json.ts: kept renderings of projects) are JSON.stringify's
      expect(first.text, url).toBe(JSON.stringify(first.json));
      // …the second time too, from the kept renderings
      const again = await s.call('GET', url, { key: false });
      expect(again.text, url).toBe(first.text);
      if (next) {
        expect(first.json.nextCursor, url).toEqual(expect.any(String));
        const sep = url.includes('?') ? '&' : '?';
        const second = await s.call(
          'GET',
          `${url}${sep}cursor=${encodeURIComponent(first.json.nextCursor)}`,
          {
            key: false,
          },
        );
        expect(second.status, url).toBe(200);
        answers.push(second.json);
      }
      for (const answer of answers) {
        // the same bytes: no field missing, extra, of another shape or in another order
        expect(JSON.stringify(schema.parse(answer)), url).toBe(JSON.stringify(answer));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(paths().length - 1);
  });

  it('notices an answer its schema refuses', () => {
    const schema = checkedOutputOf(procedures['projects.get']!._def.output)!;
    expect(() => schema.parse({ success: true, data: { id: 'x' } })).toThrow();
    // the schema tRPC runs per request lets it through: this test is the check
    const asRun = procedures['projects.get']!._def.output as { parse(v: unknown): unknown };
    expect(asRun.parse({ success: true, data: { id: 'x' } })).toEqual({ success: true, data: { id: 'x' } });
  });
});
