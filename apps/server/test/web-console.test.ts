import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_DIR } from '../src/web.ts';
import { startServer, type TestServer } from './helpers.ts';

// The routing and caching of the console's files (the pages themselves: apps/web/test).
describe('the web console at /', () => {
  let s: TestServer;
  let bare: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'web-'));
  beforeAll(async () => {
    await mkdir(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>console</title><script src="/assets/app-abc123.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    s = await startServer({ postgres: false }, { webDir: dir });
    bare = await startServer({ postgres: false }, { webDir: join(dir, 'missing') });
  });
  afterAll(async () => {
    await s?.close();
    await bare?.close();
  });

  it('serves index.html at / and at every client route, revalidated on each load, with a strict CSP', async () => {
    for (const path of ['/', '/tags', '/projects/qwen', '/queue?status=FAILED', '/changes']) {
      const r = await s.call('GET', path, { key: false });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toContain('<title>console</title>');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves hashed assets for a year, immutable; a missing one is a 404, not the page', async () => {
    const r = await s.call('GET', '/assets/app-abc123.js', { key: false });
    expect(r.status).toBe(200);
    expect(r.text).toBe('console.log(1)');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('content-type')).toMatch(/javascript/);
    const missing = await s.call('GET', '/assets/app-old.js', { key: false });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ success: false, error: 'Not Found' });
  });

  it('leaves the API, tRPC, the docs, /metrics and /healthz to their own routes', async () => {
    expect((await s.call('GET', '/healthz')).json).toEqual({ success: true, status: 'ok' });
    expect((await s.call('GET', '/api/openapi.json')).json.openapi).toMatch(/^3\.1/);
    expect((await s.call('GET', '/api/docs')).text).toContain('Project Directory API');
    expect((await s.call('GET', '/metrics')).text).toContain('# HELP');
    const api = await s.call('GET', '/api/nothing-here');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    for (const path of ['/trpc/nothing', '/docs/x', '/openapi.json']) {
      const r = await s.call('GET', path);
      expect(r.headers.get('content-type'), path).not.toMatch(/^text\/html/);
    }
    // Only reads fall back to the page.
    expect((await s.call('POST', '/', { body: {} })).status).toBe(404);
  });

  it('says how to build it when it is not built', async () => {
    const r = await bare.call('GET', '/', { key: false });
    expect(r.status).toBe(503);
    expect(r.text).toContain('pnpm build:web');
    expect((await bare.call('GET', '/healthz')).status).toBe(200);
  });

  it('is built by install: the default directory holds an index.html and hashed assets', async () => {
    const files = await readdir(join(DEFAULT_WEB_DIR, 'assets'));
    expect(files.some((f) => /^index-[\w-]{8}\.js$/.test(f))).toBe(true);
  });
});
