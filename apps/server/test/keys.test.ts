import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { project, targets, useServer } from './helpers.ts';

/**
 * A request whose body never finishes: resolves with the status of the answer the server sends
 * before it (or 'no answer' after `waitMs`), then closes the connection.
 */
function answerBeforeBody(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  waitMs = 3_000,
): Promise<number | 'no answer'> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, waitMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
    req.write('{"projects": [');
  });
}

describe.each(targets)('keys and scopes on $name (EXTENSIONS G)', (target) => {
  const s = useServer(target);

  it('accepts the key as Authorization: Bearer', async () => {
    const body = { projects: [project()] };
    const bearer = { authorization: `Bearer ${s.key}` };
    expect(
      (await s.call('POST', '/api/webhook/projects', { body, key: false, headers: bearer })).status,
    ).toBe(200);
    const wrong = { authorization: 'Bearer nope' };
    expect((await s.call('POST', '/api/webhook/projects', { body, key: false, headers: wrong })).status).toBe(
      401,
    );
    // another scheme is a wrong key, and two header keys must be the same key
    const basic = { authorization: `Basic ${s.key}` };
    expect((await s.call('GET', '/api/discovery/tasks', { key: false, headers: basic })).status).toBe(401);
    expect(
      (await s.call('GET', '/api/discovery/tasks', { headers: { authorization: 'Bearer x' } })).status,
    ).toBe(401);
    expect((await s.call('GET', '/api/discovery/tasks', { headers: bearer })).status).toBe(200);
  });

  it('the bootstrap key has every scope', async () => {
    for (const path of ['/api/discovery/stats', '/api/changes', '/api/webhooks', '/api/projects/deleted'])
      expect((await s.call('GET', path)).status, path).toBe(200);
  });

  it('refuses a wrong header key before reading the body (the body never finishes)', async () => {
    // before: the adapter read the whole body first, so this waited for the request timeout
    expect(await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { 'x-api-key': 'wrong' })).toBe(401);
    expect(
      await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { authorization: 'Bearer wrong' }),
    ).toBe(401);
    // a right key waits for its body, as it must
    expect(await answerBeforeBody(s.baseUrl, '/api/webhook/projects', { 'x-api-key': s.key }, 500)).toBe(
      'no answer',
    );
  });
});
