import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/* The CLI run as its own process against a test server, for the tests of its commands. */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** The variables of the service that a run does not inherit unless told to (they could point it elsewhere). */
const SERVICE_VARIABLES = ['WEBHOOK_API_KEY', 'PORT', 'DATABASE_URL'];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a run points the CLI: DIRECTORY_URL and DIRECTORY_API_KEY (a TestServer is one). */
export interface CliTarget {
  baseUrl: string;
  key: string;
}

/**
 * Starts the CLI (`--import tsx`, from the repository's root) with DIRECTORY_URL and
 * DIRECTORY_API_KEY set to `target`, its stdin closed; the variables of `strip` are left out of the
 * environment it inherits. `done`: its exit code and all it wrote, once it closes.
 */
export function startCli(
  target: CliTarget,
  args: string[],
  strip: readonly string[] = SERVICE_VARIABLES,
): { child: ChildProcessWithoutNullStreams; done: Promise<CliResult> } {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of strip) delete env[name];
  Object.assign(env, { DIRECTORY_URL: target.baseUrl, DIRECTORY_API_KEY: target.key });
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdin.end();
  const done = new Promise<CliResult>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/** Runs the CLI against `target` (as startCli) and waits for it to close. */
export function runCli(target: CliTarget, args: string[]): Promise<CliResult> {
  return startCli(target, args).done;
}
