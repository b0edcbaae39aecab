import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { project, type ServerProcess, slugOf, spawnServer } from './helpers.ts';

/**
 * The server as a process on embedded PGlite (`pglite:<dir>`), each test in its own directory:
 * persistence across restarts, the one-process-per-directory lock, the generated key, graceful
 * shutdown and the health check.
 */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const LOCK_FILE = 'directory-server.lock';

const dirs: string[] = [];
const servers: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop('SIGKILL')));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'directory-server-test-'));
  dirs.push(dir);
  return dir;
}

const newKey = () => `process-key-${randomBytes(8).toString('hex')}`;

/** spawnServer, remembered so that afterEach kills it whatever the test did. */
async function start(env: Record<string, string>): Promise<ServerProcess> {
  const s = await spawnServer(env);
  servers.push(s);
  return s;
}

/** main.ts run to its end (for a start that must fail): exit code and everything it wrote. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the second process did not exit:\n${output}`));
    }, 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Resolves once the process has written something matching `pattern`. */
function waitForOutput(s: ServerProcess, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(s.output())) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${pattern} in the output:\n${s.output()}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      s.child.stdout?.off('data', check);
    };
    s.child.stdout?.on('data', check);
    check();
  });
}

/**
 * A keyed POST sent with `Expect: 100-continue`: the server answers "100 Continue" once it has
 * read the headers, so when `onContinue` runs the request is surely in the server's hands;
 * `onContinue` decides when the body follows (`send` resolves once it is handed to the socket).
 */
function postExpectingContinue(
  s: ServerProcess,
  path: string,
  payload: unknown,
  onContinue: (send: () => Promise<void>) => Promise<void>,
): Promise<{ status: number; text: string }> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, s.baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-api-key': s.key,
        expect: '100-continue',
      },
    });
    const send = () => new Promise<void>((sent) => req.end(body, () => sent()));
    req.on('continue', () => {
      onContinue(send).catch((err) => {
        req.destroy();
        reject(err);
      });
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const upsert = (s: ServerProcess, projects: unknown[]) =>
  s.call('POST', '/api/webhook/projects', { body: { projects } });
const getProject = (s: ServerProcess, slug: string) =>
  s.call('GET', `/api/projects/${encodeURIComponent(slug)}`, { key: false });

describe('the server process on embedded PGlite', () => {
  it('keeps its data across a restart on the same directory', async () => {
    const env = { DATABASE_URL: `pglite:${tempDir()}`, WEBHOOK_API_KEY: newKey() };
    const first = await start(env);
    const p = project();
    expect((await upsert(first, [p])).json).toMatchObject({ created: 1 });
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await start(env);
    const r = await getProject(second, slugOf(p));
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ name: p.name, nameEn: p.nameEn, slug: slugOf(p) });
    expect(r.json.data.links.map((l: { url: string }) => l.url)).toEqual(p.links.map((l) => l.url));
  });

  it('refuses a second process on the same directory, clearly, and the first keeps serving', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: newKey() };
    const first = await start(env);
    const p = project();
    expect((await upsert(first, [p])).status).toBe(200);

    const second = await runToExit(env);
    expect(second.code).not.toBe(0);
    expect(second.code).not.toBeNull();
    expect(second.output).toMatch(/in use by another process/);
    expect(second.output).toContain(`pid ${first.child.pid}`);
    expect(second.output).not.toMatch(/"msg":"listening"/);
    // one line for a person, not a JSON log line, and exit code 1
    expect(second.code).toBe(1);
    expect(second.output.trim()).toMatch(
      /^Cannot start the server: cannot open the database pglite:\S+: The embedded database .* in use by another process \(pid \d+\)[^\n]*$/,
    );

    // The refused process left the first one's lock in place.
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(first.child.pid));
    const health = await first.call('GET', '/healthz', { key: false });
    expect(health.status).toBe(200);
    expect((await getProject(first, slugOf(p))).status).toBe(200);
    expect((await upsert(first, [project()])).json).toMatchObject({ created: 1 });
  });

  it('pnpm db:migrate on a directory a server holds: one line, exit code 1, no stack', async () => {
    const dir = tempDir();
    await start({ DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: newKey() });
    const migrate = fileURLToPath(new URL('../src/migrate-cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', migrate], {
      env: { ...process.env, DATABASE_URL: `pglite:${dir}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(1);
    expect(output.trim()).toMatch(
      /^Cannot migrate pglite:\S+: The embedded database .* is in use by another process[^\n]*$/,
    );
  });

  it('refuses to start on a port in use with one line, exit code 1', async () => {
    const first = await start({ DATABASE_URL: 'memory:', WEBHOOK_API_KEY: newKey() });
    const port = new URL(first.baseUrl).port;
    const second = await runToExit({ DATABASE_URL: 'memory:', WEBHOOK_API_KEY: newKey(), PORT: port });
    expect(second.code).toBe(1);
    expect(second.output.trim()).toMatch(
      new RegExp(
        `^Cannot start the server: cannot listen on 127\\.0\\.0\\.1:${port}: .*another process uses that port[^\\n]*$`,
      ),
    );
  });

  it('is not blocked by the stale lock of a process killed with SIGKILL', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: newKey() };
    const first = await start(env);
    expect(await first.stop('SIGKILL')).toBeNull();
    // SIGKILL runs no exit handler: the lock file of the dead process is still there.
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);

    const second = await start(env);
    expect((await second.call('GET', '/healthz', { key: false })).status).toBe(200);
    const p = project();
    expect((await upsert(second, [p])).json).toMatchObject({ created: 1 });
    expect((await getProject(second, slugOf(p))).status).toBe(200);
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

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

  it('on SIGTERM sent right after a large batch, answers the batch and exits 0', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: newKey() };
    const s = await start(env);
    const projects = Array.from({ length: 100 }, () => project({ content: '# 内容\n'.repeat(500) }));

    // The signal goes right after the whole body has been handed to the socket.
    const reply = await postExpectingContinue(s, '/api/webhook/projects', { projects }, async (send) => {
      await send();
      s.child.kill('SIGTERM');
    });

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({
      success: true,
      processed: 100,
      created: 100,
      updated: 0,
      failed: 0,
      errors: [],
      results: expect.any(Array),
    });
    expect(await s.stop()).toBe(0);
    expect(s.output()).toMatch(/"msg":"shutting down"/);
    expect(s.output()).toMatch(/"msg":"stopped"/);

    // Everything the answered request wrote was committed.
    const again = await start(env);
    const reads = await Promise.all([projects[0]!, projects[99]!].map((p) => getProject(again, slugOf(p))));
    expect(reads.map((r) => r.status)).toEqual([200, 200]);
  });

  it('once shutting down, refuses new connections but finishes the request in flight', async () => {
    const s = await start({ DATABASE_URL: `pglite:${tempDir()}`, WEBHOOK_API_KEY: newKey() });
    const projects = Array.from({ length: 20 }, () => project());

    // The request's headers are in; the shutdown starts; only then does its body follow.
    const reply = await postExpectingContinue(s, '/api/webhook/projects', { projects }, async (send) => {
      s.child.kill('SIGTERM');
      await waitForOutput(s, /"msg":"shutting down"/);
      await expect(fetch(`${s.baseUrl}/healthz`)).rejects.toThrow();
      await send();
    });

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ processed: 20, created: 20, failed: 0 });
    expect(await s.stop()).toBe(0);
    const out = s.output();
    const shuttingDown = out.indexOf('"msg":"shutting down"');
    const answered = out.search(/"path":"\/api\/webhook\/projects","status":200[^\n]*"msg":"request"/);
    const stopped = out.indexOf('"msg":"stopped"');
    expect(shuttingDown).toBeGreaterThan(-1);
    expect(answered).toBeGreaterThan(shuttingDown);
    expect(stopped).toBeGreaterThan(answered);
  });

  it('still exits on SIGTERM when the reader of its stdout has gone', async () => {
    const s = await start({ DATABASE_URL: 'memory:', WEBHOOK_API_KEY: newKey() });
    // like `… | head -1`: the next log line (the shutdown's) meets a broken pipe
    s.child.stdout?.destroy();
    const code = await Promise.race([
      s.stop('SIGTERM'),
      new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000)),
    ]);
    expect(code).toBe(0);
  });

  it('answers /healthz with exactly {"success":true,"status":"ok"}', async () => {
    const s = await start({ DATABASE_URL: `pglite:${tempDir()}`, WEBHOOK_API_KEY: newKey() });
    const r = await s.call('GET', '/healthz', { key: false });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.text).toBe('{"success":true,"status":"ok"}');
  });
});
