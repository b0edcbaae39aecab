import { it } from 'vitest';
import { project } from './helpers.ts';
import { hugeHeaders, type ResponseChecks, tooLarge } from './openapi-conformance.ts';

/**
 * Real responses match the OpenAPI document: renaming, merging and unmerging tags
 * (docs/curation.md#tags), merging projects, aliases, by-url and duplicates
 * (docs/curation.md#same-project-other-spelling), and history, revert, locks and restore
 * (docs/curation.md#history-revert-locks-and-restore). Registered by openapi.test.ts in its
 * "real responses match it" block, on its server.
 */
export function historyResponses({ s, conforms, call }: ResponseChecks): void {
  it('renames, merges and unmerges tags', async () => {
    const run = Math.random().toString(36).slice(2, 8);
    const [a, b] = [
      { name: `甲${run}`, nameEn: `Alpha ${run}` },
      { name: `乙${run}`, nameEn: `Beta ${run}` },
    ];
    await s.call('POST', '/api/webhook/projects', { body: { projects: [project({ tags: [a, b] })] } });
    const [sa, sb] = [`alpha-${run}`, `beta-${run}`];
    const rename = 'PATCH /api/tags/{slug}';
    conforms(rename, await call(rename, { slug: sa }, { body: { name: 'x' }, key: false }), 401);
    conforms(rename, await call(rename, { slug: sa }, { ...tooLarge, key: false }), 413);
    conforms(rename, await call(rename, { slug: sa }, { body: {} }), 400);
    conforms(rename, await call(rename, { slug: 'no-such-tag' }, { body: { name: 'x' } }), 404);
    conforms(rename, await call(rename, { slug: sa }, { body: { name: b.name } }), 409);
    conforms(rename, await call(rename, { slug: sa }, { body: { nameEn: `Alpha! ${run}` } }), 200);
    conforms(rename, await call(rename, { slug: sa }, { body: { name: 'x' }, ...hugeHeaders }), 431);
    const merge = 'POST /api/tags/{slug}/merge';
    conforms(merge, await call(merge, { slug: sa }, { body: { into: sb }, key: false }), 401);
    conforms(merge, await call(merge, { slug: sa }, { ...tooLarge, key: false }), 413);
    conforms(merge, await call(merge, { slug: sa }, { body: {} }), 400);
    conforms(merge, await call(merge, { slug: 'no-such-tag' }, { body: { into: sb } }), 404);
    conforms(merge, await call(merge, { slug: sa }, { body: { into: sa } }), 409);
    conforms(merge, await call(merge, { slug: sa }, { body: { into: sb } }), 200);
    conforms(merge, await call(merge, { slug: sa }, { body: { into: sb }, ...hugeHeaders }), 431);
    const unmerge = 'POST /api/tags/{slug}/unmerge';
    conforms(unmerge, await call(unmerge, { slug: sa }, { body: {}, key: false }), 401);
    conforms(unmerge, await call(unmerge, { slug: sa }, { ...tooLarge, key: false }), 413);
    conforms(unmerge, await call(unmerge, { slug: 'x'.repeat(201) }, { body: {} }), 400);
    conforms(unmerge, await call(unmerge, { slug: 'no-such-tag' }, { body: {} }), 404);
    conforms(unmerge, await call(unmerge, { slug: sb }, { body: {} }), 409);
    conforms(unmerge, await call(unmerge, { slug: sa }, { body: {} }), 200);
    conforms(unmerge, await call(unmerge, { slug: sa }, { body: {}, ...hugeHeaders }), 431);
  });

  it('merges, aliases, by-url and duplicates', async () => {
    const [from, into, other] = [project(), project(), project()];
    await s.call('POST', '/api/webhook/projects', { body: { projects: [from, into, other] } });
    const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
    const merge = 'POST /api/projects/{slug}/merge';
    conforms(merge, await call(merge, { slug: slug(from) }, { body: { into: slug(into) }, key: false }), 401);
    conforms(merge, await call(merge, { slug: slug(from) }, { ...tooLarge, key: false }), 413);
    conforms(merge, await call(merge, { slug: slug(from) }, { body: {} }), 400);
    conforms(merge, await call(merge, { slug: 'no-such-project' }, { body: { into: slug(into) } }), 404);
    conforms(merge, await call(merge, { slug: slug(from) }, { body: { into: slug(from) } }), 409);
    conforms(merge, await call(merge, { slug: slug(from) }, { body: { into: slug(into) } }), 200);
    conforms(
      merge,
      await call(merge, { slug: slug(from) }, { body: { into: slug(into) }, ...hugeHeaders }),
      431,
    );
    conforms(
      'GET /api/projects/{slug}',
      await call('GET /api/projects/{slug}', { slug: slug(from) }, { key: false }),
      301,
    );
    conforms(
      'DELETE /api/projects/{slug}',
      await call('DELETE /api/projects/{slug}', { slug: slug(from) }),
      409,
    );

    const byUrl = 'GET /api/projects/by-url';
    const found = `/api/projects/by-url?url=${encodeURIComponent(other.links[0]!.url)}`;
    conforms(byUrl, await s.call('GET', found, { key: false }), 200);
    conforms(
      byUrl,
      await s.call('GET', '/api/projects/by-url?url=https%3A%2F%2Fno.example.org%2F', { key: false }),
      404,
    );
    conforms(byUrl, await s.call('GET', '/api/projects/by-url', { key: false }), 400);
    conforms(byUrl, await s.call('GET', found, { key: false, ...hugeHeaders }), 431);

    const duplicates = 'GET /api/projects/duplicates';
    conforms(duplicates, await s.call('GET', '/api/projects/duplicates?limit=5'), 200);
    conforms(duplicates, await s.call('GET', '/api/projects/duplicates?cursor=nonsense'), 400);
    conforms(duplicates, await s.call('GET', '/api/projects/duplicates', { key: false }), 401);
    conforms(duplicates, await s.call('GET', '/api/projects/duplicates', hugeHeaders), 431);
  });

  it('history: revisions, diff, revert, deleted, restore, locks', async () => {
    const [p, gone, merged] = [project(), project(), project()];
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p, gone, merged] } });
    await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...p, description: 'Changed once more, for history.' }] },
    });
    const slug = (x: { nameEn: string }) => x.nameEn.toLowerCase().replace(/\s+/g, '-');
    await s.call('POST', `/api/projects/${slug(merged)}/merge`, { body: { into: slug(p) } });
    const alias = { slug: slug(merged) };
    const at = { slug: slug(p) };
    const none = { slug: 'no-such-project' };

    const revisions = 'GET /api/projects/{slug}/revisions';
    conforms(revisions, await call(revisions, at, { key: false }), 200);
    conforms(revisions, await call(revisions, alias, { key: false }), 301);
    conforms(revisions, await s.call('GET', `/api/projects/${at.slug}/revisions?limit=0`), 400);
    conforms(revisions, await call(revisions, none, { key: false }), 404);
    conforms(revisions, await call(revisions, at, hugeHeaders), 431);
    const revision = 'GET /api/projects/{slug}/revisions/{revision}';
    const diff = 'GET /api/projects/{slug}/revisions/{revision}/diff';
    for (const op of [revision, diff] as const) {
      conforms(op, await call(op, { ...at, revision: '2' }, { key: false }), 200);
      conforms(op, await call(op, { ...alias, revision: '1' }, { key: false }), 301);
      conforms(op, await call(op, { ...at, revision: 'x' }, { key: false }), 400);
      conforms(op, await call(op, { ...at, revision: '99' }, { key: false }), 404);
      conforms(op, await call(op, { ...at, revision: '1' }, hugeHeaders), 431);
    }

    const revert = 'POST /api/projects/{slug}/revert';
    conforms(revert, await call(revert, at, { body: { revision: 1 }, key: false }), 401);
    conforms(revert, await call(revert, at, { ...tooLarge, key: false }), 413);
    conforms(revert, await call(revert, at, { body: { revision: 0 } }), 400);
    conforms(revert, await call(revert, none, { body: { revision: 1 } }), 404);
    conforms(revert, await call(revert, alias, { body: { revision: 1 } }), 409);
    conforms(revert, await call(revert, at, { body: { revision: 1 } }), 200);
    conforms(revert, await call(revert, at, { body: { revision: 1 }, ...hugeHeaders }), 431);

    const lock = 'PUT /api/projects/{slug}/lock';
    const unlock = 'DELETE /api/projects/{slug}/lock';
    conforms(lock, await call(lock, at, { body: { fields: '*' }, key: false }), 401);
    conforms(lock, await call(lock, at, { ...tooLarge, key: false }), 413);
    conforms(lock, await call(lock, at, { body: { fields: ['slug'] } }), 400);
    conforms(lock, await call(lock, none, { body: { fields: '*' } }), 404);
    conforms(lock, await call(lock, alias, { body: { fields: '*' } }), 409);
    conforms(lock, await call(lock, at, { body: { fields: ['name', 'tags'], reason: '审校过' } }), 200);
    conforms(lock, await call(lock, at, { body: { fields: '*' }, ...hugeHeaders }), 431);
    conforms(unlock, await call(unlock, at, { key: false }), 401);
    conforms(unlock, await call(unlock, at, { ...tooLarge, key: false }), 413);
    conforms(unlock, await call(unlock, at, { raw: '[]' }), 400);
    conforms(unlock, await call(unlock, none), 404);
    conforms(unlock, await call(unlock, alias), 409);
    conforms(unlock, await call(unlock, at), 200);
    conforms(unlock, await call(unlock, at, hugeHeaders), 431);

    const deleted = await s.call('DELETE', `/api/projects/${slug(gone)}`);
    const list = 'GET /api/projects/deleted';
    conforms(list, await s.call('GET', '/api/projects/deleted?limit=1'), 200);
    conforms(list, await s.call('GET', '/api/projects/deleted?cursor=nonsense'), 400);
    conforms(list, await s.call('GET', '/api/projects/deleted', { key: false }), 401);
    conforms(list, await s.call('GET', '/api/projects/deleted', hugeHeaders), 431);
    const restore = 'POST /api/projects/deleted/{id}/restore';
    const id = { id: deleted.json.data.project.id as string };
    conforms(restore, await call(restore, id, { key: false }), 401);
    conforms(restore, await call(restore, id, { ...tooLarge, key: false }), 413);
    conforms(restore, await call(restore, id, { raw: '[]' }), 400);
    conforms(restore, await call(restore, { id: 'no-such-project' }), 404);
    conforms(restore, await call(restore, id), 200);
    conforms(restore, await call(restore, id), 409);
    conforms(restore, await call(restore, id, hugeHeaders), 431);
  });
}
