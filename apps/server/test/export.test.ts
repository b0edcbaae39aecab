import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sql } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../packages/core/src/domain/csv.ts';
import { up as grantExport } from '../../../packages/db/src/migrations/2026_11_29_001400_export_scope.ts';
import { serverOpenApiDocument } from '../src/docs.ts';
import { readNdjson } from './export-helpers.ts';
import { targets, useServer } from './helpers.ts';

const sample = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as Record<string, unknown>[];

describe.each(targets)('GET /api/export on $name', (target) => {
  const s = useServer(target);

  const key = async (scopes: string[]) => {
    const r = await s.call('POST', '/api/keys', { body: { name: `k ${scopes.join(' ')}`, scopes } });
    expect(r.status, r.text).toBe(201);
    return r.json.data.key as string;
  };

  it('seeds the sample', async () => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: sample } });
    expect(r.status, r.text).toBe(200);
  });

  it('is 401 without a key, 403 without the export scope, in the envelope', async () => {
    const none = await s.call('GET', '/api/export', { key: false });
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ success: false, error: 'Unauthorized' });
    const wrong = await s.call('GET', '/api/export', { key: 'nope' });
    expect(wrong.status).toBe(401);
    const reader = await key(['changes:read']);
    const forbidden = await s.call('GET', '/api/export', { key: reader });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.details).toEqual(['scope: this key lacks "export"']);
    const exporter = await key(['export']);
    expect((await s.call('GET', '/api/export', { key: exporter })).status).toBe(200);
  });

  it('refuses bad input with 400 as the list does', async () => {
    for (const query of [
      'format=xml',
      'status=GONE',
      'updatedAfter=yesterday',
      `after=${encodeURIComponent('a b')}`,
      'limit=3',
      'format=csv&format=ndjson',
    ]) {
      const r = await s.call('GET', `/api/export?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.error).toBe('Validation error');
    }
    const list = await s.call('GET', '/api/projects?updatedAfter=yesterday');
    const exp = await s.call('GET', '/api/export?updatedAfter=yesterday');
    expect(exp.json.details).toEqual(list.json.details);
    expect((await s.call('POST', '/api/export')).status).toBe(405);
  });

  it('writes a header line, then every project in id order exactly as endpoint 2 answers it, with its aliases', async () => {
    const r = await s.call('GET', '/api/export');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-ndjson');
    const { header, projects } = readNdjson(r.text);
    expect(Object.keys(header)).toEqual(['type', 'version', 'asOf', 'cursor', 'count']);
    expect(header).toMatchObject({ type: 'export', version: 1, count: sample.length });
    expect(r.headers.get('x-export-cursor')).toBe(header.cursor);
    expect(projects).toHaveLength(sample.length);
    const ids = projects.map((p) => p.id);
    expect(ids).toEqual([...ids].sort());
    for (const p of projects.slice(0, 10)) {
      const one = await s.call('GET', `/api/projects/${p.slug}`);
      expect(JSON.stringify(p)).toBe(JSON.stringify({ ...one.json.data, aliases: [] }));
    }
    // following the feed from the cursor: nothing the export already holds
    const after = await s.call('GET', `/api/changes?after=${header.cursor}`);
    expect(after.status, after.text).toBe(200);
    expect(after.json.changes).toEqual([]);
    const edited = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...sample[0], description: 'changed after the export' }] },
    });
    expect(edited.status).toBe(200);
    const later = await s.call('GET', `/api/changes?after=${header.cursor}`);
    expect(later.json.changes.map((c: any) => c.slug)).toEqual([
      projects.find((p) => p.name === sample[0]!.name).slug,
    ]);
  });

  it('takes the list filters and resumes after an id', async () => {
    const all = readNdjson((await s.call('GET', '/api/export')).text).projects;
    const archived = readNdjson((await s.call('GET', '/api/export?status=ARCHIVED')).text);
    expect(archived.projects.every((p) => p.status === 'ARCHIVED')).toBe(true);
    expect(archived.header.count).toBe(all.filter((p) => p.status === 'ARCHIVED').length);
    const tag = all[0].tags[0]?.slug as string;
    const tagged = readNdjson((await s.call('GET', `/api/export?tag=${tag}`)).text);
    expect(tagged.projects.map((p) => p.id)).toEqual(
      all.filter((p) => p.tags.some((t: any) => t.slug === tag)).map((p) => p.id),
    );
    const list = await s.call('GET', `/api/projects?tag=${tag}&limit=100`);
    expect(tagged.header.count).toBe(list.json.total);
    expect(readNdjson((await s.call('GET', '/api/export?tag=no-such-tag')).text).header.count).toBe(0);
    const resumed = readNdjson((await s.call('GET', `/api/export?after=${all[9].id}`)).text);
    expect(resumed.header.count).toBe(all.length - 10);
    expect(resumed.projects.map((p) => p.id)).toEqual(all.slice(10).map((p) => p.id));
  });

  it('writes CSV with RFC 4180 quoting: commas, quotes, newlines, Chinese and emoji', async () => {
    const tricky = {
      name: '逗号, "引号" 🚀',
      nameEn: 'Comma, "quote"\nnew line',
      description: '第一行\r\n第二行, 还有 "引号" 😀',
      links: [{ type: 'CODEHOST', url: 'https://github.com/example/csv-quoting' }],
      tags: [{ name: '测试', nameEn: 'Testing' }],
    };
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [tricky] } })).status).toBe(
      200,
    );
    const r = await s.call('GET', '/api/export?format=csv');
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('x-export-cursor')).toBeTruthy();
    const [head, ...rows] = parseCsv(r.text);
    expect(head?.slice(0, 4)).toEqual(['id', 'slug', 'name', 'nameEn']);
    const row = rows.find((x) => x[2] === tricky.name);
    expect(row?.[3]).toBe(tricky.nameEn);
    expect(row?.[4]).toBe(tricky.description);
    expect(row?.[10]).toBe('testing');
    expect(row?.[11]).toBe('https://github.com/example/csv-quoting');
    expect(rows).toHaveLength(Number(r.headers.get('x-export-count')));
  });

  it('is gzipped when Accept-Encoding asks', async () => {
    const res = await fetch(`${s.baseUrl}/api/export`, {
      headers: { 'x-api-key': s.key, 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes it; the bytes on the wire are gzip
    const text = await res.text();
    expect(readNdjson(text).header.type).toBe('export');
    const raw = await new Promise<Buffer>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(
          `${s.baseUrl}/api/export`,
          { headers: { 'x-api-key': s.key, 'accept-encoding': 'gzip;q=1' } },
          (m) => {
            const parts: Buffer[] = [];
            m.on('data', (d) => parts.push(d));
            m.on('end', () => resolve(Buffer.concat(parts)));
          },
        ).on('error', reject),
      );
    });
    expect(readNdjson(gunzipSync(raw).toString('utf8')).projects.length).toBeGreaterThan(0);
    const plain = await s.call('GET', '/api/export', { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('migration 001400 gives export to the keys holding keys:admin, and to no other', async () => {
    const db = s.db.db;
    await sql`
      insert into api_keys (id, name, hash, start, scopes) values
        ('mig-admin', 'old admin', 'hash-mig-admin', 'dir_a', '{keys:admin,curate}'),
        ('mig-reader', 'old reader', 'hash-mig-reader', 'dir_b', '{changes:read}')
    `.execute(db);
    await grantExport(db as never);
    await grantExport(db as never);
    const { rows } = await sql<{ id: string; scopes: string[] }>`
      select id, scopes from api_keys where id like 'mig-%' order by id
    `.execute(db);
    expect(rows).toEqual([
      { id: 'mig-admin', scopes: ['keys:admin', 'curate', 'export'] },
      { id: 'mig-reader', scopes: ['changes:read'] },
    ]);
  });

  it('is in the OpenAPI document: both content types, the list filters as the list has them, its refusals', async () => {
    const doc: any = serverOpenApiDocument({ rateLimited: false });
    const op = doc.paths['/api/export'].get;
    expect(Object.keys(op.responses['200'].content)).toEqual([
      'application/x-ndjson',
      'text/csv; charset=utf-8',
    ]);
    expect(op['x-scope']).toBe('export');
    const list = doc.paths['/api/projects'].get.parameters;
    for (const name of ['status', 'tag', 'updatedAfter'])
      expect(op.parameters.find((p: any) => p.name === name)).toEqual(list.find((p: any) => p.name === name));
    const refusals = [
      await s.call('GET', '/api/export?format=xml'),
      await s.call('GET', '/api/export', { key: false }),
      await s.call('GET', '/api/export', { key: await key(['curate']) }),
      await s.call('PUT', '/api/export'),
    ];
    for (const r of refusals) {
      const documented = op.responses[String(r.status)];
      expect(documented, `${r.status}`).toBeDefined();
      expect(documented.description).toContain(r.json.error);
    }
    for (const status of ['429', '503']) expect(op.responses[status]).toBeDefined();
  });
});
