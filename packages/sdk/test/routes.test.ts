import { appRouter, type Meta } from '@directory/core';
import { describe, expect, it } from 'vitest';
import { buildRequest, ROUTES } from '../src/routes.ts';

/** `projects.upsert` → its `meta.openapi` route, read from the router the server serves. */
function serverRoutes(): Record<string, { method: string; path: string }> {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
  return Object.fromEntries(
    Object.entries(procedures).map(([name, p]) => {
      const openapi = p._def.meta?.openapi;
      return [name, { method: openapi?.method ?? '(none)', path: openapi?.path ?? '(none)' }];
    }),
  );
}

describe('the SDK route table', () => {
  it('has exactly the routes of the server router', () => {
    const sdk = Object.fromEntries(
      Object.entries(ROUTES).flatMap(([namespace, routes]) =>
        Object.entries(routes).map(([name, r]) => [
          `${namespace}.${name}`,
          { method: r.method, path: r.path },
        ]),
      ),
    );
    expect(sdk).toEqual(serverRoutes());
  });

  it('marks exactly the deletes, status change, complete, claim, release, merge, restore (a deleted project, a batch of an export), tag unmerge, edit, redeliver, webhook create and key create and rotate, webhook secret rotation as not repeatable', () => {
    const once = Object.entries(ROUTES).flatMap(([namespace, routes]) =>
      Object.entries(routes)
        .filter(([, r]) => !r.repeatable)
        .map(([name]) => `${namespace}.${name}`),
    );
    expect(once.sort()).toEqual([
      'keys.create',
      'keys.rotate',
      'projects.delete',
      'projects.edit',
      'projects.merge',
      'projects.restore',
      'restore.batch',
      'tags.unmerge',
      'tasks.claim',
      'tasks.complete',
      'tasks.release',
      'tasks.updateStatus',
      'webhooks.create',
      'webhooks.delete',
      'webhooks.redeliver',
      'webhooks.rotateSecret',
    ]);
  });
});

describe('buildRequest', () => {
  it('takes path parameters from the input, encoded, and the rest into the query for GET', () => {
    const r = buildRequest('http://h:1/', ROUTES.tasks.list, {
      status: 'PENDING',
      limit: 5,
      offset: undefined,
    });
    expect(r).toEqual({ url: 'http://h:1/api/discovery/tasks?status=PENDING&limit=5', body: undefined });
    const g = buildRequest('http://h:1', ROUTES.projects.get, { slug: 'a b/c' });
    expect(g.url).toBe('http://h:1/api/projects/a%20b%2Fc');
  });

  it('sends the remaining fields as a JSON body for other methods', () => {
    const r = buildRequest('http://h:1/base', ROUTES.tasks.updateStatus, { id: 'x1', status: 'FAILED' });
    expect(r).toEqual({ url: 'http://h:1/base/api/discovery/tasks/x1', body: '{"status":"FAILED"}' });
    const d = buildRequest('http://h:1', ROUTES.projects.delete, { slug: 's' });
    expect(d).toEqual({ url: 'http://h:1/api/projects/s', body: undefined });
  });
});
