import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { targets, useServer } from './helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const guess = () => `dir_${Array.from(randomBytes(44), (b) => BASE58[b % BASE58.length]).join('')}`;

describe.each(targets)(
  'guesses cost the guesser on $name (docs/keys-and-limits.md#rate-limiting)',
  (target) => {
    const s = useServer(target, { rateLimit: { windowMs: 60_000, perAddress: 5, perKey: 0 } });

    /** How many keys the server has looked up in the database (api_key_lookups_total, both results). */
    const keyLookups = async () => {
      const r = await s.call('GET', '/metrics');
      expect(r.status).toBe(200);
      const counts = [...r.text.matchAll(/^api_key_lookups_total\{result="(?:found|unknown)"\} (\d+)$/gm)];
      expect(counts).toHaveLength(2);
      return counts.reduce((sum, m) => sum + Number(m[1]), 0);
    };

    it('an unknown key is charged to its address before it is looked up: over the budget, no lookup', async () => {
      const start = await keyLookups();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await s.call('GET', '/api/discovery/tasks', { key: guess() })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      // within the budget, each guess was looked up (and found unknown)
      const before = await keyLookups();
      expect(before - start).toBe(5);
      for (let i = 0; i < 20; i++) {
        const r = await s.call('GET', '/api/discovery/tasks', { key: guess() });
        expect(r.status).toBe(429);
        expect(r.headers.get('ratelimit-policy')).toMatch(/^"anon"/);
      }
      // before: each of the 20 guesses was looked up, then refused as the address's request
      expect((await keyLookups()) - before).toBe(0);
    });
  },
);

describe.each(targets)('a valid key is never refused for its address on $name', (target) => {
  const s = useServer(target, { rateLimit: { windowMs: 60_000, perAddress: 3, perKey: 0 } });

  it('a named key used slower than the key cache lasts is charged to itself, not to its address (docs/keys-and-limits.md#rate-limiting)', async () => {
    const created = await s.call('POST', '/api/keys', {
      body: { name: 'slow-crawler', scopes: ['tasks:read'] },
    });
    expect(created.status, created.text).toBe(201);
    const key = created.json.data.key as string;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // past the process's 500 ms cache of keys: every request is looked up again
      await sleep(600);
      statuses.push((await s.call('GET', '/api/discovery/tasks', { key })).status);
    }
    // before: the fourth was 429 "per client address" although the key had budget left
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    // a wrong key from the same address is still the address's request
    const guesses: number[] = [];
    for (let i = 0; i < 4; i++)
      guesses.push((await s.call('GET', '/api/discovery/tasks', { key: guess() })).status);
    expect(guesses).toContain(429);
  });
});

describe.each(targets)('a rotated key keeps its count on $name', (target) => {
  const s = useServer(target, { rateLimit: { windowMs: 60_000, perAddress: 0, perKey: 0 } });

  it('the new key of a rotation is counted with the old one for the window', async () => {
    const created = await s.call('POST', '/api/keys', {
      body: { name: 'limited', scopes: ['tasks:read'], rateLimit: { requests: 3, windowSeconds: 60 } },
    });
    const old = created.json.data as { id: string; key: string };
    expect((await s.call('GET', '/api/discovery/tasks', { key: old.key })).status).toBe(200);
    expect((await s.call('GET', '/api/discovery/tasks', { key: old.key })).status).toBe(200);
    const rotated = await s.call('POST', `/api/keys/${old.id}/rotate`, { body: { graceSeconds: 60 } });
    const fresh = rotated.json.data.key as string;
    const third = await s.call('GET', '/api/discovery/tasks', { key: fresh });
    expect(third.status).toBe(200);
    expect(third.headers.get('ratelimit')).toMatch(/r=0\b/);
    // before: a fresh budget of 3
    expect((await s.call('GET', '/api/discovery/tasks', { key: fresh })).status).toBe(429);
    expect((await s.call('GET', '/api/discovery/tasks', { key: old.key })).status).toBe(429);
  });
});
