import { expect, it } from 'vitest';
import { project, slugOf, type TestServer } from './helpers.ts';
import { BASE58_KEY, type CreateKey, sleep } from './keys-helpers.ts';

/**
 * A named key's life (docs/keys-and-limits.md#named-keys-and-scopes,
 * docs/keys-and-limits.md#revoking-a-key): revoked, rotated with a grace period, expired, its
 * lastUsedAt, the revisions it writes and their actor, and an actor or key name that is not plain
 * refused. Registered by keys.test.ts, on its server.
 */
export function keyLifecycle(s: TestServer, createKey: CreateKey): void {
  it('revokes: the key is refused at once; revoking again changes nothing; unknown id 404', async () => {
    const k = await createKey({ name: 'short-lived', scopes: ['tasks:read'] });
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(200);
    const revoked = await s.call('DELETE', `/api/keys/${k.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json.data.revokedAt).not.toBeNull();
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(401);
    expect((await s.call('GET', '/api/keys/self', { key: k.key })).status).toBe(401);
    const again = await s.call('DELETE', `/api/keys/${k.id}`);
    expect(again.json.data.revokedAt).toBe(revoked.json.data.revokedAt);
    expect((await s.call('DELETE', '/api/keys/no-such-key')).status).toBe(404);
  });

  it('rotates with a grace period: both work until it ends, then only the new key', async () => {
    const k = await createKey({
      name: 'rotating',
      scopes: ['tasks:read'],
      rateLimit: { requests: 99, windowSeconds: 60 },
    });
    const r = await s.call('POST', `/api/keys/${k.id}/rotate`, { body: { graceSeconds: 2 } });
    expect(r.status).toBe(200);
    const fresh = r.json.data;
    expect(fresh).toMatchObject({
      name: 'rotating',
      scopes: ['tasks:read'],
      rateLimit: { requests: 99, windowSeconds: 60 },
    });
    expect(fresh.key).toMatch(BASE58_KEY);
    expect(fresh.id).not.toBe(k.id);
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(200);
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh.key })).status).toBe(200);
    await sleep(2_700);
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(401);
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh.key })).status).toBe(200);
    // grace 0: at once; a revoked key cannot be rotated
    const now = await s.call('POST', `/api/keys/${fresh.id}/rotate`, { body: {} });
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh.key })).status).toBe(401);
    expect((await s.call('GET', '/api/discovery/tasks', { key: now.json.data.key })).status).toBe(200);
    expect((await s.call('POST', `/api/keys/${fresh.id}/rotate`, { body: {} })).status).toBe(409);
    expect(
      (await s.call('POST', `/api/keys/${fresh.id}/rotate`, { body: { graceSeconds: 604_801 } })).status,
    ).toBe(400);
  });

  it('an expired key is 401', async () => {
    const k = await createKey({
      name: 'expiring',
      scopes: ['tasks:read'],
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(200);
    await sleep(2_000);
    expect((await s.call('GET', '/api/discovery/tasks', { key: k.key })).status).toBe(401);
  });

  it('records lastUsedAt once a key is used', async () => {
    const k = await createKey({ name: 'used', scopes: ['tasks:read'] });
    await s.call('GET', '/api/discovery/tasks', { key: k.key });
    let used: string | null = null;
    for (let i = 0; i < 50 && used === null; i++) {
      await sleep(50);
      used = (await s.call('GET', '/api/keys')).json.data.find(
        (x: { id: string }) => x.id === k.id,
      ).lastUsedAt;
    }
    expect(used).not.toBeNull();
  });

  it('a revision records the key, and its name as the actor when no X-Directory-Actor is sent', async () => {
    const k = await createKey({ name: 'curator-ana', scopes: ['projects:write', 'curate'] });
    const p = project();
    expect(
      (await s.call('POST', '/api/webhook/projects', { key: k.key, body: { projects: [p] } })).status,
    ).toBe(200);
    const history = await s.call('GET', `/api/projects/${slugOf(p)}/revisions`, { key: false });
    expect(history.json.revisions[0]).toMatchObject({
      actor: 'curator-ana',
      key: { id: k.id, name: 'curator-ana' },
    });
    await s.call('POST', '/api/webhook/projects', {
      key: k.key,
      headers: { 'x-directory-actor': 'Ana' },
      body: { projects: [{ ...p, description: 'Changed by Ana herself.' }] },
    });
    await s.call('POST', '/api/webhook/projects', {
      body: { projects: [{ ...p, description: 'Changed by the bootstrap key.' }] },
    });
    const after = (await s.call('GET', `/api/projects/${slugOf(p)}/revisions`, { key: false })).json
      .revisions;
    expect(after[1]).toMatchObject({ actor: 'Ana', key: { id: k.id, name: 'curator-ana' } });
    // the bootstrap key is named as /api/keys/self names it; it is no named key
    expect(after[0]).toMatchObject({ actor: 'bootstrap', key: null });
    expect((await s.call('GET', '/api/keys/self')).json.data).toMatchObject({ id: null, name: 'bootstrap' });
  });

  it('refuses an actor or a key name that is not plain (bidi override, zero-width, separator, filler) with 400', async () => {
    const p = project();
    const hidden = [
      'system\u202enimda',
      'a\u200bb',
      'x\u2066y',
      '\u3164',
      'a\u115Fb',
      '\u2800',
      'a\u034Fb',
      'a\u2028b',
    ];
    for (const actor of hidden) {
      const r = await s.call('POST', '/api/webhook/projects', {
        headers: { 'x-directory-actor': encodeURIComponent(actor) },
        body: { projects: [p] },
      });
      expect(r.status, actor).toBe(400);
      expect(r.json.details[0]).toMatch(/^header X-Directory-Actor: Must not contain control, format/);
    }
    expect((await s.call('GET', `/api/projects/${slugOf(p)}`, { key: false })).status).toBe(404);
    for (const name of ['evil\u202egnp.exe', ...hidden]) {
      const r = await s.call('POST', '/api/keys', { body: { name, scopes: ['tasks:read'] } });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.json.details).toEqual([expect.stringMatching(/^name: Must not contain control, format/)]);
    }
  });
}
