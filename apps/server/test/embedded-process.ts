import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type ServerProcess, spawnServer } from './helpers.ts';

/*
 * What the tests of the server as a process on embedded PGlite share (docs/operating.md#configuration):
 * server-process.test.ts, server-process-keys.test.ts and server-process-shutdown.test.ts.
 */

export const newKey = () => `process-key-${randomBytes(8).toString('hex')}`;

/**
 * A test file's server processes and temporary directories: `start` and `tempDir` remember them,
 * and an afterEach kills every process (SIGKILL, whatever the test did) and removes the directories.
 */
export function useProcesses() {
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

  /** spawnServer, remembered so that afterEach kills it whatever the test did. */
  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const s = await spawnServer(env);
    servers.push(s);
    return s;
  }

  return { tempDir, start };
}

export const upsert = (s: ServerProcess, projects: unknown[]) =>
  s.call('POST', '/api/webhook/projects', { body: { projects } });
export const getProject = (s: ServerProcess, slug: string) =>
  s.call('GET', `/api/projects/${encodeURIComponent(slug)}`, { key: false });
