import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newKey, useProcesses } from './embedded-process.ts';
import { project, type ServerProcess } from './helpers.ts';

/**
 * The server as a process on embedded PGlite (`pglite:<dir>`) or `memory:`, each test in its own
 * directory: the key it generates without WEBHOOK_API_KEY, the key file it keeps in an embedded
 * database directory, and a configured key never written to its output
 * (docs/getting-started.md#the-two-first-commands).
 */

const { tempDir, start } = useProcesses();

describe('the server process on embedded PGlite', () => {
  it('without WEBHOOK_API_KEY prints a generated key exactly once, and that key works', async () => {
    const s = await start({ DATABASE_URL: 'memory:', WEBHOOK_API_KEY: '', LOG_LEVEL: 'trace' });
    const key = s.output().match(/generated key: (\S+)/)?.[1];
    expect(key).toBeDefined();
    expect(key!.length).toBeGreaterThanOrEqual(16);

    const ok = await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] }, key });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ created: 1 });
    const invalid = await s.call('POST', '/api/webhook/projects', { body: { projects: [] }, key });
    expect(invalid.status).toBe(400);
    const inBody = await s.call('POST', '/api/webhook/projects', {
      body: { apiKey: key, projects: [project()] },
      key: false,
    });
    expect(inBody.status).toBe(200);
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } })).status).toBe(
      401,
    );
    expect(
      (await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] }, key: false })).status,
    ).toBe(401);

    expect(await s.stop('SIGTERM')).toBe(0);
    expect(s.output().split(key!).length - 1).toBe(1);
  });

  it('without WEBHOOK_API_KEY on an embedded database directory, makes one key, keeps it (0600) and prints it once', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: '' };
    const first = await start(env);
    const key = first.output().match(/generated an API key, kept in (\S+): (\S+)/);
    expect(key?.[1]).toBe(join(dir, 'api-key'));
    expect(readFileSync(join(dir, 'api-key'), 'utf8')).toBe(`${key?.[2]}\n`);
    expect(statSync(join(dir, 'api-key')).mode & 0o777).toBe(0o600);
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await start(env);
    expect(second.output()).toContain(`using the API key kept in ${join(dir, 'api-key')}`);
    expect(second.output()).not.toContain(key![2]);
    const ok = await second.call('POST', '/api/webhook/projects', {
      body: { projects: [project()] },
      key: key![2],
    });
    expect(ok.status).toBe(200);
    expect(await second.stop('SIGTERM')).toBe(0);

    // a configured key wins over the file, and is not written to it
    const configured = newKey();
    const third = await start({ ...env, WEBHOOK_API_KEY: configured });
    expect(
      (await third.call('POST', '/api/webhook/projects', { body: { projects: [project()] }, key: key![2] }))
        .status,
    ).toBe(401);
    expect(
      (
        await third.call('POST', '/api/webhook/projects', {
          body: { projects: [project()] },
          key: configured,
        })
      ).status,
    ).toBe(200);
    expect(readFileSync(join(dir, 'api-key'), 'utf8')).toBe(`${key?.[2]}\n`);
    expect(third.output()).not.toMatch(/API key kept in/);
    // three starts of a server on an embedded database directory: a minute on a loaded machine
  }, 180_000);

  it('never writes a configured WEBHOOK_API_KEY to its output', async () => {
    const key = newKey();
    const s = await start({ DATABASE_URL: `pglite:${tempDir()}`, WEBHOOK_API_KEY: key, LOG_LEVEL: 'trace' });
    const post = (options: Parameters<ServerProcess['call']>[2], path = '/api/webhook/projects') =>
      s.call('POST', path, options);

    expect((await post({ body: { projects: [project()] } })).status).toBe(200); // header
    expect((await post({ body: { apiKey: key, projects: [project()] }, key: false })).status).toBe(200); // body
    expect((await post({ body: { apiKey: key, projects: [project()] } })).status).toBe(200); // both
    const invalid = await post({ body: { apiKey: key, projects: [{ ...project(), tags: [] }] } });
    expect(invalid.status).toBe(400);
    expect(invalid.text).not.toContain(key);
    const unparsable = await post({ raw: `{"apiKey":"${key}", "projects": [` });
    expect(unparsable.status).toBe(400);
    expect(unparsable.text).not.toContain(key);
    const wrongHeader = await post({ body: { apiKey: key, projects: [project()] }, key: `${key}x` });
    expect(wrongHeader.status).toBe(401);
    expect(wrongHeader.text).not.toContain(key);
    const inQuery = await post(
      { body: { projects: [project()] }, key: false },
      `/api/webhook/projects?apiKey=${key}`,
    );
    expect(inQuery.status).toBe(401);

    expect(await s.stop('SIGTERM')).toBe(0);
    expect(s.output()).toMatch(/"msg":"stopped"/);
    expect(s.output()).not.toContain(key);
    expect(s.output()).not.toMatch(/generated key/);
  });
});
