import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(SDK, 'dist');
const FIXTURES = join(SDK, 'test', 'fixtures');
const run = promisify(execFile);
/** pnpm as this run was started with (`pnpm test` sets npm_execpath), else the one on PATH. */
const pnpm = (args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  process.env.npm_execpath?.includes('pnpm')
    ? run(process.execPath, [process.env.npm_execpath, ...args], options)
    : run('pnpm', args, options);

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

  it('has self-contained declarations: imports only from the packages it depends on', () => {
    const declarations = readFileSync(join(DIST, 'index.d.ts'), 'utf8');
    const imported = [...declarations.matchAll(/^import [^\n]* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(new Set(imported)).toEqual(new Set(['@trpc/server', '@trpc/client']));
  });

  it('packs into a tarball that an empty project installs alone, compiles against with skipLibCheck false, and runs the CLI of', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
    try {
      // pnpm pack writes the catalog: versions as numbers, as a publish would
      await pnpm(['pack', '--pack-destination', dir], { cwd: SDK });
      const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
      expect(tarball).toBeDefined();
      const manifest = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8'));
      expect(manifest.private).toBeUndefined();
      expect(manifest).toMatchObject({ license: 'MIT', engines: { node: '>=20' } });
      expect(manifest.exports['.'].types).toBe('./dist/index.d.ts');

      const app = join(dir, 'app');
      await run('mkdir', ['-p', app]);
      writeFileSync(
        join(app, 'package.json'),
        JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      );
      const typesNode = createRequire(import.meta.url)('@types/node/package.json').version;
      const typescript = createRequire(import.meta.url)('typescript/package.json').version;
      await pnpm(
        [
          'add',
          '--prefer-offline',
          join(dir, tarball!),
          `@types/node@${typesNode}`,
          `typescript@${typescript}`,
        ],
        {
          cwd: app,
          env: { ...process.env, npm_config_workspace_dir: app },
        },
      );
      const installed = readdirSync(join(app, 'node_modules'));
      expect(installed).not.toContain('kysely');
      expect(installed).not.toContain('trpc-to-openapi');

      copyFileSync(join(FIXTURES, 'consumer.ts'), join(app, 'consumer.ts'));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2022', 'DOM'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            types: ['node'],
            strict: true,
            skipLibCheck: false,
            noEmit: true,
          },
          files: ['consumer.ts'],
        }),
      );
      const compiled = await run(
        join(app, 'node_modules', '.bin', 'tsc'),
        ['-p', join(app, 'tsconfig.json')],
        {
          cwd: app,
        },
      ).then(
        () => 'ok',
        (err: { stdout?: string }) => err.stdout ?? String(err),
      );
      expect(compiled).toBe('ok');

      const cli = join(app, 'node_modules', '.bin', 'directory');
      const env = { ...process.env, DIRECTORY_URL: s.baseUrl, WEBHOOK_API_KEY: s.key, DIRECTORY_API_KEY: '' };
      const { stdout: help } = await run(cli, ['--help'], { cwd: app, env });
      expect(help).toMatch(/tasks add/);
      const { stdout: checked } = await run(cli, ['check', 'https://example.org/packed-cli', '--json'], {
        cwd: app,
        env,
      });
      expect(JSON.parse(checked)).toMatchObject({ success: true, results: [{ reason: 'New URL' }] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs as ./directory from the repository root: the built CLI, by Node alone, against a server', async () => {
    // The launcher runs packages/sdk/dist/cli.js (built above, so it builds nothing first).
    const root = join(SDK, '..', '..');
    const env = { ...process.env, DIRECTORY_URL: s.baseUrl, WEBHOOK_API_KEY: s.key, DIRECTORY_API_KEY: '' };
    const help = await run(join(root, 'directory'), ['--help'], { cwd: root, env });
    expect(help.stdout).toMatch(/^Usage: directory <command>/);
    expect(help.stderr).toBe('');
    const { stdout } = await run(
      join(root, 'directory'),
      ['check', 'https://example.org/launcher', '--json'],
      {
        cwd: root,
        env,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ success: true, results: [{ reason: 'New URL' }] });
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
