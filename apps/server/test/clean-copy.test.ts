import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** pnpm as this run was started with (`pnpm test` sets npm_execpath), else the one on PATH. */
const PNPM: [string, string[]] = process.env.npm_execpath?.includes('pnpm')
  ? [process.execPath, [process.env.npm_execpath]]
  : ['pnpm', []];
const pnpm = (args: string[], cwd: string) =>
  run(PNPM[0], [...PNPM[1], ...args], { cwd, maxBuffer: 64 << 20, env: { ...process.env, CI: 'true' } });

// The Dockerfile's steps, without Docker (no engine runs here): a clean copy of the committed
// tree (git archive HEAD), install with the lockfile, build, gather the runtime directory, and
// start it with plain node as the image does, until /healthz answers.
describe('the Dockerfile steps from a clean copy of HEAD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clean-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('install --frozen-lockfile, build, runtime directory, start, /healthz', async () => {
    const src = join(dir, 'src');
    await run('sh', ['-c', `mkdir -p "${src}" && git -C "${ROOT}" archive HEAD | tar -x -C "${src}"`]);
    await pnpm(['install', '--frozen-lockfile', '--prefer-offline'], src);
    await pnpm(['build'], src);
    await run(process.execPath, [join(src, 'scripts', 'runtime-bundle.mjs'), join(dir, 'runtime')]);
    // the source tree is not needed any more: the runtime stands alone
    rmSync(src, { recursive: true, force: true });

    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: join(dir, 'runtime'),
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `pglite:${join(dir, 'data')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 120_000);
        const poll = setInterval(() => {
          const m = output.match(/"url":"(http:\/\/[^"]+)"/);
          if (m?.[1]) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(m[1]);
          }
        }, 50);
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ success: true, status: 'ok' });
      expect((await fetch(`${url}/api/docs/assets/swagger-ui.css`)).status).toBe(200);
      // the web console, from the runtime directory's web/
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      // the first-run key was made and kept in the data directory
      expect(output).toMatch(/generated an API key, kept in \S+api-key/);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 600_000);
});
