import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { project, startServer, type TestServer, uniqueUrl } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryClient, DirectoryError, type ProjectInput } from '../src/index.ts';
import { retryAfterMs } from '../src/transport.ts';

type Fetch = typeof globalThis.fetch;

/**
 * A fetch that answers with the scripted replies first (one per call; a function may also
 * throw like a failed connection), then passes calls through to the real fetch.
 */
function scripted(...script: (() => Response | Promise<Response>)[]) {
  const calls: string[] = [];
  const fetch: Fetch = async (input, init) => {
    calls.push(`${init?.method} ${String(input)}`);
    const next = script.shift();
    return next ? next() : globalThis.fetch(input, init);
  };
  return { fetch, calls };
}

const envelope =
  (status: number, error: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ success: false, error, details: ['scripted'] }), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

const networkFailure = (code: string) => () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
};

async function failure(call: Promise<unknown>): Promise<DirectoryError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DirectoryError);
  return err as DirectoryError;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('retries and timeouts', () => {
  let s: TestServer;
  let slug: string;
  let taskId: string;
  beforeAll(async () => {
    s = await startServer({ postgres: false });
    const p = project() as ProjectInput & { nameEn: string };
    slug = p.nameEn.toLowerCase().replace(/\s+/g, '-');
    const client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
    await client.projects.upsert({ projects: [p] });
    const sourceUrl = uniqueUrl('retry');
    await client.tasks.create({ tasks: [{ sourceUrl }] });
    taskId = (await client.tasks.list({ limit: 100 })).tasks.find((t) => t.sourceUrl === sourceUrl)!.id;
  });
  afterAll(async () => {
    await s?.close();
  });
  const clientWith = (fetch: Fetch, options: { retries?: number; timeoutMs?: number } = {}) =>
    createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key, fetch, ...options });

  it('retries a read after a 503 and succeeds on the second attempt', async () => {
    const f = scripted(envelope(503, 'Service Unavailable'));
    const got = await clientWith(f.fetch).projects.get({ slug });
    expect(got.data.slug).toBe(slug);
    expect(f.calls).toEqual([
      `GET ${s.baseUrl}/api/projects/${slug}`,
      `GET ${s.baseUrl}/api/projects/${slug}`,
    ]);
  });

  it('retries a repeatable write after a 500 and a reset connection', async () => {
    const f = scripted(envelope(500, 'Internal server error'), networkFailure('ECONNRESET'));
    const r = await clientWith(f.fetch).tasks.create({ tasks: [{ sourceUrl: uniqueUrl('again') }] });
    expect(r).toMatchObject({ success: true, created: 1 });
    expect(f.calls).toHaveLength(3);
  });

  it('gives up after `retries` further attempts with the last error', async () => {
    const f = scripted(...Array.from({ length: 5 }, () => envelope(502, 'Bad gateway')));
    const err = await failure(clientWith(f.fetch, { retries: 2 }).tasks.get({ id: taskId }));
    expect(err).toMatchObject({ status: 502, error: 'Bad gateway', details: ['scripted'] });
    expect(f.calls).toHaveLength(3);
  });

  it('does not repeat a status change, delete or complete after a 5xx or a lost connection', async () => {
    const f = scripted(
      envelope(503, 'Service Unavailable'),
      networkFailure('ECONNRESET'),
      envelope(500, 'Internal server error'),
    );
    const client = clientWith(f.fetch);
    const err = await failure(client.tasks.updateStatus({ id: taskId, status: 'IN_PROGRESS' }));
    expect(err).toMatchObject({ status: 503, error: 'Service Unavailable' });
    expect(f.calls).toHaveLength(1);
    const lost = await failure(client.projects.delete({ slug }));
    expect(lost).toMatchObject({ status: 0, error: 'Network error' });
    expect(lost.details[0]).toContain('ECONNRESET');
    expect(f.calls).toHaveLength(2);
    const broken = await failure(
      client.tasks.complete({ id: taskId, explorationData: project() as ProjectInput }),
    );
    expect(broken.status).toBe(500);
    expect(f.calls).toHaveLength(3);
    // none reached the server
    expect((await client.tasks.get({ id: taskId })).task.status).toBe('PENDING');
    expect((await client.projects.get({ slug })).data.slug).toBe(slug);
  });

  it('repeats any call after a 429, waiting as long as Retry-After asks', async () => {
    const f = scripted(envelope(429, 'Too many requests', { 'retry-after': '1' }));
    const started = Date.now();
    const r = await clientWith(f.fetch).tasks.updateStatus({ id: taskId, status: 'IN_PROGRESS' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r.task.status).toBe('IN_PROGRESS');
    expect(f.calls).toHaveLength(2);
    await clientWith(globalThis.fetch).tasks.updateStatus({ id: taskId, status: 'FAILED' });
    await clientWith(globalThis.fetch).tasks.updateStatus({ id: taskId, status: 'PENDING' });
  });

  it('repeats any call whose connection was refused before anything was sent', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    let attempts = 0;
    const counting: Fetch = (input, init) => {
      attempts++;
      return globalThis.fetch(input, init);
    };
    const client = createDirectoryClient({ baseUrl: url, apiKey: 'k', fetch: counting, retries: 2 });
    const err = await failure(client.tasks.complete({ id: 'x', explorationData: project() as ProjectInput }));
    expect(err).toMatchObject({ status: 0, error: 'Network error' });
    expect(err.details[0]).toMatch(/ECONNREFUSED/);
    expect(attempts).toBe(3);
  });

  it('turns a reply that is not the envelope into a clear error', async () => {
    const html = () => new Response('<html>upstream down</html>', { status: 502, statusText: 'Bad Gateway' });
    const err = await failure(clientWith(scripted(html).fetch, { retries: 0 }).tasks.get({ id: taskId }));
    expect(err).toMatchObject({
      status: 502,
      error: 'HTTP 502 Bad Gateway',
      details: ['Unexpected response body: <html>upstream down</html>'],
    });
    const empty = () => new Response(null, { status: 200 });
    const bad = await failure(clientWith(scripted(empty).fetch, { retries: 0 }).tasks.get({ id: taskId }));
    expect(bad).toMatchObject({ status: 200, details: ['Empty response body'] });
  });

  it('aborts an attempt after timeoutMs: DirectoryError status 0 "Timeout"', async () => {
    let attempts = 0;
    const silent = createServer(() => {
      attempts++; // never answers
    });
    const url = await listen(silent);
    try {
      const client = createDirectoryClient({ baseUrl: url, apiKey: 'k', timeoutMs: 200, retries: 1 });
      const started = Date.now();
      const err = await failure(client.tasks.get({ id: 'x' }));
      const elapsed = Date.now() - started;
      expect(err).toMatchObject({ status: 0, error: 'Timeout', details: ['No response within 200 ms'] });
      expect(elapsed).toBeGreaterThanOrEqual(390);
      expect(elapsed).toBeLessThan(2000);
      expect(attempts).toBe(2);
      // a status change is not sent twice
      await failure(client.tasks.updateStatus({ id: 'x', status: 'FAILED' }));
      expect(attempts).toBe(3);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('times out even a fetch that ignores the abort signal', async () => {
    const never: Fetch = () => new Promise<Response>(() => {});
    const started = Date.now();
    const err = await failure(clientWith(never, { timeoutMs: 100, retries: 0 }).projects.get({ slug }));
    expect(err).toMatchObject({ status: 0, error: 'Timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('DirectoryError', () => {
  it('is an Error with status, error and details', () => {
    const err = new DirectoryError(404, 'Not Found', ['Project with slug "x" not found']);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'DirectoryError', status: 404, error: 'Not Found' });
    expect(err.message).toBe('Not Found: Project with slug "x" not found');
    expect(new DirectoryError(0, 'Timeout', []).message).toBe('Timeout');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds or an HTTP date, capped at 30 s', () => {
    const now = Date.parse('2026-11-22T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(retryAfterMs('3600', now)).toBe(30_000);
    expect(retryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
