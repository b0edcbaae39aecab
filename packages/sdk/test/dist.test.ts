import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(SDK, 'dist');
const FIXTURES = join(SDK, 'test', 'fixtures');
const run = promisify(execFile);

/** Runs the package's own build script, as `pnpm run build` would (with its bin folder on PATH). */
async function build() {
  const { scripts } = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8')) as {
    scripts: { build: string };
  };
  const PATH = [join(SDK, 'node_modules', '.bin'), process.env.PATH].join(delimiter);
  await run(scripts.build, { cwd: SDK, shell: true, env: { ...process.env, PATH } });
}

describe('the built package', () => {
  let s: TestServer;
  beforeAll(async () => {
    [s] = await Promise.all([startServer({ postgres: false }), build()]);
  }, 300_000);
  afterAll(async () => {
    await s?.close();
  });

  it('has JavaScript and declarations that name no workspace package', () => {
    const files = readdirSync(DIST);
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts']));
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      expect(readFileSync(join(DIST, file), 'utf8'), file).not.toMatch(/@directory\//);
    }
    const declarations = readFileSync(join(DIST, 'index.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/@directory\//);
    expect(declarations).toMatch(/declare function createDirectoryClient/);
  });

  it('works from plain Node ESM through the package exports', async () => {
    const suffix = randomBytes(4).toString('hex');
    const { stdout } = await run(process.execPath, [join(FIXTURES, 'consumer.mjs')], {
      cwd: SDK,
      env: { ...process.env, BASE_URL: s.baseUrl, API_KEY: s.key, SUFFIX: suffix },
    });
    expect(JSON.parse(stdout)).toEqual({
      created: 1,
      name: `Dist consumer ${suffix}`,
      missing: { isDirectoryError: true, status: 404, error: 'Not Found' },
      trpcSlug: `dist-consumer-${suffix}`,
    });
  });

  it('has declarations a TypeScript consumer type-checks against', async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', join(FIXTURES, 'tsconfig.json')], {
      cwd: SDK,
    }).then(
      () => 'ok',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(result).toBe('ok');
  });
});
