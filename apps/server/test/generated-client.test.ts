import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverOpenApiDocument } from '../src/docs.ts';
import { startServer, type TestServer } from './helpers.ts';
import { startValidatingProxy, type ValidatingProxy } from './validating-proxy.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCENARIO = fileURLToPath(new URL('./generated-client/scenario.ts', import.meta.url));
// the contract's conformance suite: `shared` beside the repository, as .ci/run has it (SHARED_DIR
// elsewhere)
const CONFORMANCE = join(process.env.SHARED_DIR ?? join(ROOT, '..', 'shared'), 'conformance', 'spec.mjs');

/** The operations the scenario must exercise: every one of the ten endpoints. */
const OPERATIONS = [
  'POST /api/webhook/projects',
  'GET /api/projects/{slug}',
  'DELETE /api/projects/{slug}',
  'POST /api/discovery/tasks',
  'GET /api/discovery/tasks',
  'GET /api/discovery/tasks/{id}',
  'PATCH /api/discovery/tasks/{id}',
  'POST /api/discovery/tasks/{id}/complete',
  'POST /api/discovery/check-duplicates',
  'POST /api/webhook/check-duplicates',
];

describe('a client generated from the OpenAPI document by openapi-typescript, and every response checked against the document', () => {
  // Inside the repository's node_modules, so that the copy resolves openapi-fetch, tsx and @types/node.
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'generated-client-'));
  const document = serverOpenApiDocument({ rateLimited: false });
  let server: TestServer;
  let proxy: ValidatingProxy;

  beforeAll(async () => {
    server = await startServer({ postgres: false });
    proxy = await startValidatingProxy(server.baseUrl, document);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles a scenario over every operation, strict and without a cast', async () => {
    const source = readFileSync(SCENARIO, 'utf8');
    // no `as` but `as const`, no `any`, no `!` non-null assertion, no suppressed error
    const code = source.replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(/\bas (?!const\b)|\bany\b|@ts-|[\w)\]]!(?!==?)/);
    writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(document) as any)));
    writeFileSync(join(dir, 'scenario.ts'), source);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['scenario.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    await run(tsc, ['-p', join(dir, 'tsconfig.json')]).catch((err) => {
      throw new Error(
        `the scenario does not compile against the generated types:\n${err.stdout}${err.stderr}`,
      );
    });
  });

  it('runs the scenario against a server, every response as documented', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'scenario.ts')], {
      cwd: dir,
      env: { ...process.env, BASE_URL: proxy.url, API_KEY: server.key },
    });
    const exercised = stdout
      .split('\n')
      .filter((line) => line.startsWith('ok '))
      .map((line) => line.slice(3));
    expect([...new Set(exercised)].sort()).toEqual([...OPERATIONS].sort());
    expect(proxy.violations).toEqual([]);
    for (const operation of OPERATIONS) {
      expect(
        proxy.checked.some((c) => c.startsWith(`${operation} 200`)),
        operation,
      ).toBe(true);
    }
  });

  it('the proxy reports a response its document does not allow', async () => {
    const narrowed: any = structuredClone(document);
    narrowed.components.schemas.ErrorResponse.properties.error.enum = ['Unauthorized'];
    delete narrowed.paths['/api/discovery/tasks'].post.responses['400'];
    const strict = await startValidatingProxy(server.baseUrl, narrowed);
    try {
      await fetch(`${strict.url}/api/projects/nothing-here`);
      await fetch(`${strict.url}/api/discovery/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': server.key },
        body: '{}',
      });
      expect(strict.violations).toEqual([
        expect.stringMatching(
          /^GET \/api\/projects\/\{slug\} 404 .*must be equal to one of the allowed values/,
        ),
        expect.stringMatching(/^POST \/api\/discovery\/tasks 400: status not documented/),
      ]);
    } finally {
      await strict.close();
    }
  });

  it.skipIf(!existsSync(CONFORMANCE))(
    'runs the conformance suite through a validating proxy: every response as documented',
    async () => {
      const before = proxy.checked.length;
      await run(process.execPath, [CONFORMANCE], {
        env: { ...process.env, BASE_URL: proxy.url, API_KEY: server.key },
        maxBuffer: 16 << 20,
      }).catch((err) => {
        throw new Error(`the conformance suite failed through the proxy:\n${err.stdout}${err.stderr}`);
      });
      const checked = proxy.checked.slice(before);
      expect(checked.length).toBeGreaterThan(100);
      // every one of the ten operations was checked
      const seen = new Set(checked.map((c) => c.replace(/ \d+$/, '')));
      for (const operation of OPERATIONS) expect(seen.has(operation), operation).toBe(true);
      expect(proxy.violations).toEqual([]);
    },
  );
});
