import { it } from 'vitest';
import { project, uniqueUrl } from './helpers.ts';
import { hugeHeaders, NUL, type ResponseChecks, tooLarge } from './openapi-conformance.ts';

/**
 * Real responses match the OpenAPI document: the projects' upsert, read, delete and list, the
 * tags' list, and the queue's tasks (docs/api.md, sections 1 to 8). Registered by openapi.test.ts
 * in its "real responses match it" block, on its server.
 */
export function projectResponses({ s, conforms, call }: ResponseChecks): void {
  it('POST /api/webhook/projects', async () => {
    const op = 'POST /api/webhook/projects';
    conforms(op, await call(op, {}, { body: { projects: [project()] } }), 200);
    conforms(op, await call(op, {}, { body: { projects: [] } }), 400);
    conforms(op, await call(op, {}, { raw: '{"projects": [' }), 400);
    conforms(op, await call(op, {}, { body: { projects: [project()] }, key: false }), 401);
    conforms(op, await call(op, {}, { ...tooLarge, key: false }), 413);
    conforms(op, await call(op, {}, { body: { projects: [project()] }, ...hugeHeaders }), 431);
  });

  it('GET and DELETE /api/projects/{slug}', async () => {
    const kept = project();
    const gone = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [kept, gone] } });
    const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
    const get = 'GET /api/projects/{slug}';
    conforms(get, await call(get, { slug: slug(kept) }, { key: false }), 200);
    conforms(get, await call(get, { slug: 'no-such-project' }, { key: false }), 404);
    conforms(get, await call(get, { slug: NUL }, { key: false }), 400);
    conforms(get, await call(get, { slug: slug(kept) }, { key: false, ...hugeHeaders }), 431);

    const del = 'DELETE /api/projects/{slug}';
    conforms(del, await call(del, { slug: slug(gone) }, { key: false }), 401);
    conforms(del, await call(del, { slug: slug(gone) }, { ...tooLarge, key: false }), 413);
    conforms(del, await call(del, { slug: slug(gone) }, { raw: '[]' }), 400);
    conforms(del, await call(del, { slug: slug(gone) }, { body: { apiKey: s.key }, key: false }), 200);
    conforms(del, await call(del, { slug: slug(gone) }), 404);
    conforms(del, await call(del, { slug: slug(gone) }, hugeHeaders), 431);
  });

  it('GET /api/projects and GET /api/tags', async () => {
    await s.call('POST', '/api/webhook/projects', { body: { projects: [project(), project()] } });
    const list = 'GET /api/projects';
    conforms(list, await call(list, {}, { key: false }), 200);
    const page = await s.call('GET', '/api/projects?limit=1&facets=tags,status,linkTypes', { key: false });
    conforms(list, page, 200);
    conforms(
      list,
      await s.call('GET', `/api/projects?limit=1&cursor=${page.json.nextCursor}`, { key: false }),
      200,
    );
    conforms(
      list,
      await s.call('GET', `/api/projects?q=${encodeURIComponent('测试 project')}&include=content`),
      200,
    );
    conforms(list, await s.call('GET', '/api/projects?limit=101', { key: false }), 400);
    conforms(list, await call(list, {}, { key: false, ...hugeHeaders }), 431);
    const tags = 'GET /api/tags';
    conforms(tags, await call(tags, {}, { key: false }), 200);
    conforms(tags, await s.call('GET', '/api/tags?sort=name&limit=1', { key: false }), 200);
    conforms(tags, await s.call('GET', '/api/tags?sort=size', { key: false }), 400);
    conforms(tags, await call(tags, {}, { key: false, ...hugeHeaders }), 431);
  });

  it('POST and GET /api/discovery/tasks', async () => {
    const create = 'POST /api/discovery/tasks';
    conforms(create, await call(create, {}, { body: { tasks: [{ sourceUrl: uniqueUrl('task') }] } }), 200);
    conforms(create, await call(create, {}, { body: { tasks: [{ sourceUrl: 'not a url' }] } }), 400);
    conforms(create, await call(create, {}, { body: { tasks: [] }, key: false }), 401);
    conforms(create, await call(create, {}, { ...tooLarge, key: false }), 413);
    conforms(create, await call(create, {}, { body: { tasks: [] }, ...hugeHeaders }), 431);

    const list = 'GET /api/discovery/tasks';
    conforms(list, await call(list, {}), 200);
    conforms(list, await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=1&offset=0'), 200);
    conforms(list, await s.call('GET', '/api/discovery/tasks?limit=0'), 400);
    conforms(list, await s.call('GET', '/api/discovery/tasks?status=DONE'), 400);
    conforms(list, await call(list, {}, { key: false }), 401);
    conforms(list, await call(list, {}, hugeHeaders), 431);
  });

  it('GET, PATCH and complete /api/discovery/tasks/{id}', async () => {
    const urls = [uniqueUrl('task'), uniqueUrl('task'), uniqueUrl('task')];
    await s.call('POST', '/api/discovery/tasks', {
      body: { tasks: urls.map((sourceUrl) => ({ sourceUrl })) },
    });
    const listed = await s.call('GET', '/api/discovery/tasks?limit=100');
    const [a, b, c] = urls.map((url) => listed.json.tasks.find((t: any) => t.sourceUrl === url).id as string);
    const id = (x: string | undefined) => ({ id: x! });

    const get = 'GET /api/discovery/tasks/{id}';
    conforms(get, await call(get, id(a), { key: false }), 200);
    conforms(get, await call(get, id('no-such-task'), { key: false }), 404);
    conforms(get, await call(get, id(NUL), { key: false }), 400);
    conforms(get, await call(get, id(a), { key: false, ...hugeHeaders }), 431);

    const patch = 'PATCH /api/discovery/tasks/{id}';
    conforms(patch, await call(patch, id(a), { body: { status: 'IN_PROGRESS' }, key: false }), 401);
    conforms(patch, await call(patch, id(a), { ...tooLarge, key: false }), 413);
    conforms(patch, await call(patch, id(a), { body: { status: 'DONE' } }), 400);
    conforms(patch, await call(patch, id('no-such-task'), { body: { status: 'IN_PROGRESS' } }), 404);
    conforms(
      patch,
      await call(patch, id(a), { body: { status: 'IN_PROGRESS', explorationSummary: 'looking' } }),
      200,
    );
    conforms(patch, await call(patch, id(a), { body: { status: 'IN_PROGRESS' } }), 409);
    conforms(patch, await call(patch, id(a), { body: { status: 'IN_PROGRESS' }, ...hugeHeaders }), 431);
    conforms(get, await call(get, id(a), { key: false }), 200);

    const complete = 'POST /api/discovery/tasks/{id}/complete';
    const data = { explorationData: project() };
    conforms(complete, await call(complete, id(a), { body: data, key: false }), 401);
    conforms(complete, await call(complete, id(a), { ...tooLarge, key: false }), 413);
    conforms(complete, await call(complete, id(a), { raw: '{"explorationData": ' }), 400);
    conforms(complete, await call(complete, id(b), { body: { explorationData: { name: '' } } }), 400);
    conforms(complete, await call(complete, id('no-such-task'), { body: data }), 404);
    conforms(complete, await call(complete, id(a), { body: data }), 200);
    conforms(complete, await call(complete, id(a), { body: data }), 409);
    conforms(complete, await call(complete, id(c), { body: data, ...hugeHeaders }), 431);
    // a completed task, and a failed one, read back
    conforms(get, await call(get, id(a), { key: false }), 200);
    conforms(get, await call(get, id(b), { key: false }), 200);
  });
}
