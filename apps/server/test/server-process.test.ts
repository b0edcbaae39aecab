import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getProject, newKey, upsert, useProcesses } from './embedded-process.ts';
import { project, slugOf } from './helpers.ts';

/**
 * The server as a process on embedded PGlite (`pglite:<dir>`), each test in its own directory:
 * persistence across restarts, the one-process-per-directory lock (docs/operating.md#several-processes-crashes-and-outages) and the health
 * check. Its keys are in server-process-keys.test.ts, its graceful shutdown in
 * server-process-shutdown.test.ts.
 */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const LOCK_FILE = 'directory-server.lock';

const { tempDir, start } = useProcesses();

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

  it('answers /healthz with exactly {"success":true,"status":"ok"}', async () => {
    const s = await start({ DATABASE_URL: `pglite:${tempDir()}`, WEBHOOK_API_KEY: newKey() });
    const r = await s.call('GET', '/healthz', { key: false });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.text).toBe('{"success":true,"status":"ok"}');
  });
});
