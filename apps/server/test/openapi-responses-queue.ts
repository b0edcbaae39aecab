import { it } from 'vitest';
import { project, uniqueUrl } from './helpers.ts';
import { hugeHeaders, type ResponseChecks, tooLarge } from './openapi-conformance.ts';

/**
 * Real responses match the OpenAPI document: the duplicate checks (docs/api.md, sections 9 and 10),
 * the queue's claim, heartbeat, release and stats (docs/workers.md), the search synonyms and the
 * curated results (docs/search.md#curated-results-pins). Registered by openapi.test.ts in its
 * "real responses match it" block, on its server.
 */
export function queueResponses({ s, conforms, call }: ResponseChecks): void {
  it('the duplicate checks', async () => {
    const tasks = 'POST /api/discovery/check-duplicates';
    const url = uniqueUrl('dup');
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    conforms(tasks, await call(tasks, {}, { body: { urls: [url, uniqueUrl('new')] } }), 200);
    conforms(tasks, await call(tasks, {}, { body: { urls: [] } }), 400);
    conforms(tasks, await call(tasks, {}, { body: { urls: [url] }, key: false }), 401);
    conforms(tasks, await call(tasks, {}, { ...tooLarge, key: false }), 413);
    conforms(tasks, await call(tasks, {}, { body: { urls: [url] }, ...hugeHeaders }), 431);

    const projects = 'POST /api/webhook/check-duplicates';
    const p = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [p] } });
    const body = { projects: [{ codehostUrl: p.links[0]!.url }, { slug: 'no-such-project' }] };
    conforms(projects, await call(projects, {}, { body }), 200);
    conforms(projects, await call(projects, {}, { body: { projects: [{}] } }), 400);
    conforms(projects, await call(projects, {}, { body, key: false }), 401);
    conforms(projects, await call(projects, {}, { ...tooLarge, key: false }), 413);
    conforms(projects, await call(projects, {}, { body, ...hugeHeaders }), 431);
  });

  it('the queue: claim, heartbeat, release, stats', async () => {
    const urls = [uniqueUrl('queue'), uniqueUrl('queue')];
    await s.call('POST', '/api/discovery/tasks', {
      body: { tasks: urls.map((sourceUrl) => ({ sourceUrl })) },
    });
    const claim = 'POST /api/discovery/tasks/claim';
    const claimed = await call(claim, {}, { body: { limit: 50, leaseSeconds: 60, worker: 'w-1' } });
    conforms(claim, claimed, 200);
    conforms(claim, await call(claim, {}, { body: { limit: 51 } }), 400);
    conforms(claim, await call(claim, {}, { body: {}, key: false }), 401);
    conforms(claim, await call(claim, {}, { ...tooLarge, key: false }), 413);
    conforms(claim, await call(claim, {}, { body: {}, ...hugeHeaders }), 431);
    const [a, b] = claimed.json.tasks as { id: string; leaseToken: string }[];
    const heartbeat = 'POST /api/discovery/tasks/{id}/heartbeat';
    const body = (t: { leaseToken: string } | undefined) => ({ body: { leaseToken: t!.leaseToken } });
    conforms(heartbeat, await call(heartbeat, { id: a!.id }, body(a)), 200);
    conforms(heartbeat, await call(heartbeat, { id: a!.id }, { body: { leaseToken: 'nope' } }), 409);
    conforms(heartbeat, await call(heartbeat, { id: 'no-such-task' }, body(a)), 404);
    conforms(heartbeat, await call(heartbeat, { id: a!.id }, { body: {} }), 400);
    conforms(heartbeat, await call(heartbeat, { id: a!.id }, { ...body(a), key: false }), 401);
    conforms(heartbeat, await call(heartbeat, { id: a!.id }, { ...tooLarge, key: false }), 413);
    conforms(heartbeat, await call(heartbeat, { id: a!.id }, { ...body(a), ...hugeHeaders }), 431);
    const release = 'POST /api/discovery/tasks/{id}/release';
    conforms(
      release,
      await call(release, { id: b!.id }, { body: { leaseToken: b!.leaseToken, retryAfterSeconds: -1 } }),
      400,
    );
    conforms(release, await call(release, { id: b!.id }, { ...body(b), key: false }), 401);
    conforms(release, await call(release, { id: b!.id }, { ...tooLarge, key: false }), 413);
    conforms(release, await call(release, { id: 'no-such-task' }, body(b)), 404);
    conforms(
      release,
      await call(release, { id: b!.id }, { body: { leaseToken: b!.leaseToken, errorMessage: '超时' } }),
      200,
    );
    conforms(release, await call(release, { id: b!.id }, body(b)), 409);
    conforms(release, await call(release, { id: b!.id }, { ...body(b), ...hugeHeaders }), 431);
    const stats = 'GET /api/discovery/stats';
    conforms(stats, await call(stats, {}), 200);
    conforms(stats, await call(stats, {}, { key: false }), 401);
    conforms(stats, await s.call('GET', '/api/discovery/stats?status=PENDING'), 400);
    conforms(stats, await call(stats, {}, hugeHeaders), 431);
    const list = 'GET /api/discovery/tasks';
    conforms(list, await s.call('GET', '/api/discovery/tasks?cursor=%21%21'), 400);
  });

  it('the search synonyms', async () => {
    const get = 'GET /api/search/synonyms';
    conforms(get, await call(get, {}, { key: false }), 200);
    conforms(get, await s.call('GET', '/api/search/synonyms?set=1', { key: false }), 400);
    conforms(get, await call(get, {}, { key: false, ...hugeHeaders }), 431);
    const put = 'PUT /api/search/synonyms';
    conforms(put, await call(put, {}, { body: { sets: [['大模型', 'LLM']] } }), 200);
    conforms(
      put,
      await call(
        put,
        {},
        {
          body: {
            sets: [
              ['a', 'b'],
              ['B', 'c'],
            ],
          },
        },
      ),
      400,
    );
    conforms(put, await call(put, {}, { body: { sets: [] }, key: false }), 401);
    conforms(put, await call(put, {}, { ...tooLarge, key: false }), 413);
    conforms(put, await call(put, {}, { body: { sets: [] }, ...hugeHeaders }), 431);
    conforms(put, await call(put, {}, { body: { sets: [] } }), 200);
  });

  it('the curated results (pins)', async () => {
    const get = 'GET /api/search/pins';
    conforms(get, await call(get, {}, { key: false }), 200);
    conforms(get, await s.call('GET', '/api/search/pins?pin=1', { key: false }), 400);
    conforms(get, await call(get, {}, { key: false, ...hugeHeaders }), 431);
    const put = 'PUT /api/search/pins';
    conforms(put, await call(put, {}, { body: { pins: [{ query: 'Qwen', first: ['qwen'] }] } }), 200);
    const twice = [
      { query: 'qwen', first: [] },
      { query: 'QWEN', first: [] },
    ];
    conforms(put, await call(put, {}, { body: { pins: twice } }), 400);
    conforms(put, await call(put, {}, { body: { pins: [] }, key: false }), 401);
    conforms(put, await call(put, {}, { ...tooLarge, key: false }), 413);
    conforms(put, await call(put, {}, { body: { pins: [] }, ...hugeHeaders }), 431);
    conforms(put, await call(put, {}, { body: { pins: [] } }), 200);
  });
}
