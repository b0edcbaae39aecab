import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type TestServer, useServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, expect } from 'vitest';

/*
 * The test server of the CLI's command tests (docs/getting-started.md#cli-directory) and the CLI run
 * as its own process against it, shared by cli.test.ts, cli-import.test.ts and cli-tasks.test.ts.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
// By its location: the CLI also runs from directories outside the repository.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
  bare?: boolean;
}

/**
 * A test file's server (on PGlite) and a temporary directory, started in its beforeAll and removed
 * in its afterAll; `cli` runs commands against that server and `file` writes files into the directory.
 */
export function useCliServer() {
  const server: TestServer = useServer({ postgres: false });
  let dir = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'directory-cli-'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /**
   * Runs the CLI as its own process, the way `pnpm directory` does, with DIRECTORY_URL and
   * DIRECTORY_API_KEY pointing at the test server unless `env` says otherwise. Every run also
   * checks that the API key never shows in the output.
   */
  async function cli(args: string[], options: CliOptions = {}) {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of ['DIRECTORY_URL', 'DIRECTORY_API_KEY', 'WEBHOOK_API_KEY', 'PORT', 'DATABASE_URL'])
      delete env[name];
    // bare: as a person's shell after the README's first command, with no service variable set
    if (!options.bare) Object.assign(env, { DIRECTORY_URL: server.baseUrl, DIRECTORY_API_KEY: server.key });
    Object.assign(env, options.env);
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd: options.cwd ?? ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdin.end(options.input ?? '');
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    const result: Result = { code, stdout, stderr };
    expect(stdout + stderr).not.toContain(server.key);
    return result;
  }

  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  return { server, cli, file, dir: () => dir };
}

export const ndjson = (items: unknown[]) => `${items.map((i) => JSON.stringify(i)).join('\n')}\n`;

/** The one line a failed run writes to stderr; never a stack trace. */
export function expectOneErrorLine(r: Result) {
  expect(r.stderr).toMatch(/^error: .+\n$/);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}
