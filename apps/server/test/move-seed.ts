import { expect } from 'vitest';
import { type Client, project, slugOf, uniqueUrl } from './helpers.ts';

async function ok(c: Client, method: string, path: string, body?: unknown) {
  const r = await c.call(method, path, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
  return r.json;
}

/**
 * Every kind of row the directory keeps, written through the API: projects upserted, edited,
 * locked, deleted, merged; a tag renamed and one merged; keys created, rotated, revoked; tasks
 * pending, in progress, completed and failed; a webhook with deliveries; synonyms, pins and a
 * dismissed pair. Returns the slugs of the projects that remain.
 */
export async function seedEverything(c: Client, hookUrl: string, received: string[]): Promise<string[]> {
  await ok(c, 'POST', '/api/webhooks', { url: hookUrl, events: ['*'], description: 'every change' });
  // restored from an export while the directory was empty (docs/operating.md#restore-from-an-export)
  const at = '2026-01-02T03:04:05.678Z';
  const restored = {
    id: 'restoredmoveseed00000001',
    slug: 'restored-before-the-move',
    name: '恢复的项目',
    nameEn: 'Restored before the move',
    description: 'A project restored from an export.',
    descriptionEn: null,
    content: null,
    contentEn: null,
    status: 'ACTIVE',
    source: null,
    createdAt: at,
    updatedAt: at,
    tags: [{ id: 'restoredmovetag000000001', name: 'move-restored', nameEn: null, slug: 'move-restored' }],
    links: [{ id: 'restoredmovelink00000001', type: 'CODEHOST', url: uniqueUrl('restored'), title: null }],
    signals: { stars: 3, downloads: null },
    lock: null,
  };
  const header = { type: 'export', version: 1, asOf: at, cursor: 'seed', count: 1 };
  await ok(c, 'POST', '/api/restore', { header, firstLine: 2, projects: [restored], done: true });
  const tagged = (name: string) => [{ name }];
  const ps = Array.from({ length: 12 }, (_, i) =>
    project({ tags: [...tagged(`move-a-${i % 3}`), ...tagged('move-common')] }),
  );
  await ok(c, 'POST', '/api/webhook/projects', { projects: ps });
  const slugs = ps.map(slugOf);
  // edited: a second version of three, with a summary
  const edited = ps.slice(0, 3).map((p) => ({ ...p, description: `${p.description} Edited once.` }));
  const r = await c.call('POST', '/api/webhook/projects', {
    body: { projects: edited },
    headers: { 'x-directory-summary': 'the first edit' },
  });
  expect(r.status, r.text).toBe(200);
  await ok(c, 'PUT', `/api/projects/${slugs[3]}/lock`, { fields: ['name', 'links'], reason: 'curated' });
  await ok(c, 'DELETE', `/api/projects/${slugs[4]}`);
  await ok(c, 'POST', `/api/projects/${slugs[5]}/merge`, { into: slugs[6] });
  await ok(c, 'POST', '/api/projects/duplicates/dismiss', { slugs: [slugs[7], slugs[8]] });
  await ok(c, 'PATCH', '/api/tags/move-a-0', { nameEn: 'Renamed tag' });
  await ok(c, 'POST', '/api/tags/move-a-1/merge', { into: 'move-a-2' });
  const made = await ok(c, 'POST', '/api/keys', { name: 'crawler', scopes: ['projects:write'] });
  await ok(c, 'POST', `/api/keys/${made.data.id}/rotate`, { graceSeconds: 60 });
  const other = await ok(c, 'POST', '/api/keys', { name: 'reader', scopes: ['changes:read'] });
  await ok(c, 'DELETE', `/api/keys/${other.data.id}`);
  const urls = Array.from({ length: 4 }, () => uniqueUrl('task'));
  await ok(c, 'POST', '/api/discovery/tasks', { tasks: urls.map((sourceUrl) => ({ sourceUrl })) });
  const claimed = await ok(c, 'POST', '/api/discovery/tasks/claim', {
    limit: 3,
    leaseSeconds: 600,
    worker: 'w1',
  });
  const [done, failed] = claimed.tasks as { id: string; leaseToken: string }[];
  await ok(c, 'POST', `/api/discovery/tasks/${done!.id}/complete`, {
    explorationData: project(),
    leaseToken: done!.leaseToken,
  });
  await ok(c, 'PATCH', `/api/discovery/tasks/${failed!.id}`, {
    status: 'FAILED',
    errorMessage: 'not found',
    leaseToken: failed!.leaseToken,
  });
  await ok(c, 'PUT', '/api/search/synonyms', {
    sets: [
      ['模型', 'model'],
      ['move', 'relocate'],
    ],
  });
  await ok(c, 'PUT', '/api/search/pins', { pins: [{ query: 'test', first: [slugs[9]], hide: [slugs[10]] }] });
  // the webhook's deliveries recorded (its attempts, each a row)
  const deadline = Date.now() + 20_000;
  while (received.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(received.length).toBeGreaterThanOrEqual(5);
  return slugs.filter((_, i) => i !== 4 && i !== 5);
}
