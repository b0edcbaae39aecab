import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docSteps, matches, type Step } from './docs-examples.ts';
import { freshPostgresDatabase, POSTGRES_URL, type ServerProcess, spawnServer } from './helpers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The order the pages' examples run in, on one server holding the sample data: each page's
 * examples work on projects and tasks of their own and remove the projects they made, but some
 * figures (a total, a count) assume what the pages before them left.
 */
const PAGES = [
  'README.md',
  'docs/api.md',
  'docs/search.md',
  'docs/curation.md',
  'docs/getting-started.md',
  'docs/workers.md',
  'docs/changes-and-webhooks.md',
  'docs/keys-and-limits.md',
  'docs/operating.md',
  'docs/benchmarks.md',
  'docs/decisions.md',
];

interface Ran {
  step: Step;
  code: number;
  stdout: string;
}

/** A child process that runs too long is stopped with everything it started. */
function limit(child: ReturnType<typeof spawn>, ms: number, what: string, onTimeout: (e: Error) => void) {
  const timer = setTimeout(() => {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
    onTimeout(new Error(`${what} ran longer than ${ms / 1000} s and was stopped`));
  }, ms);
  child.once('exit', () => clearTimeout(timer));
}

/** Runs a page's sh steps in one bash (variables carry from block to block), each step's output apart. */
function runShell(steps: Step[], env: NodeJS.ProcessEnv, rewrite: (code: string) => string): Promise<Ran[]> {
  const marker = `@@step-${randomBytes(4).toString('hex')}`;
  const script = steps.map((s, i) => `${rewrite(s.code)}\nprintf '\\n${marker} ${i} %s\\n' "$?"`).join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    limit(child, 240_000, `the shell of ${steps[0]?.where}`, reject);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.once('error', reject);
    child.once('exit', () => {
      const ran: Ran[] = [];
      let rest = out;
      for (const [i, step] of steps.entries()) {
        const m = new RegExp(`\\n${marker} ${i} (\\d+)\\n`).exec(rest);
        if (!m) {
          reject(new Error(`${step.where}: the shell stopped before this step\n${rest}\n${err}`));
          return;
        }
        ran.push({ step, code: Number(m[1]), stdout: rest.slice(0, m.index) });
        rest = rest.slice(m.index + m[0].length);
      }
      if (ran.some((r) => r.code !== 0)) ran.push({ step: steps.at(-1) as Step, code: -1, stdout: err });
      resolve(ran);
    });
  });
}

/** Runs a ts step with tsx; `@directory/sdk` and `../packages/…` lead to the sources. */
function runTs(
  step: Step,
  env: NodeJS.ProcessEnv,
  dir: string,
  rewrite: (code: string) => string,
): Promise<Ran> {
  const file = join(dir, `step-${randomBytes(4).toString('hex')}.mts`);
  const code = rewrite(step.code)
    .replaceAll("'@directory/sdk'", `'${root}packages/sdk/src/index.ts'`)
    .replaceAll("'../packages/", `'${root}packages/`);
  writeFileSync(file, code);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    limit(child, 120_000, step.where, reject);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ step, code: code ?? -1, stdout: out }));
  });
}

/** On PostgreSQL when TEST_DATABASE_URL is set (as .ci/run's first pass), else on PGlite (its Node 24 pass). */
describe(`the examples of the README and of every page of docs/ on ${POSTGRES_URL ? 'postgres' : 'pglite'}`, () => {
  const key = `docs-${randomBytes(8).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'directory-docs-'));
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;
  let rewrite: (code: string) => string;

  beforeAll(async () => {
    // WEBHOOK_ALLOW_PRIVATE: the change-feed example receives its webhook on 127.0.0.1.
    database = POSTGRES_URL ? await freshPostgresDatabase() : undefined;
    server = await spawnServer({
      DATABASE_URL: database?.url ?? `pglite:${join(dir, 'data')}`,
      WEBHOOK_API_KEY: key,
      WEBHOOK_ALLOW_PRIVATE: '1',
    });
    const base = server.baseUrl;
    // The address of this server for the first command's; `./directory` as the sources it is built
    // from (packages/sdk/test/dist.test.ts rebuilds packages/sdk/dist meanwhile; the launcher's own
    // run is tested there).
    rewrite = (code) =>
      code
        .replaceAll('http://127.0.0.1:3000', base)
        .replaceAll('localhost:3000', base.replace(/^http:\/\//, ''))
        .replace(/(^|[\s|;&(])\.\/directory(?=\s)/gm, '$1node --import tsx packages/sdk/src/cli.ts');
    env = {
      ...process.env,
      WEBHOOK_API_KEY: key,
      DIRECTORY_URL: base,
      BASE_URL: base,
      API_KEY: key,
      NO_COLOR: '1',
    };
    for (const name of ['DIRECTORY_API_KEY', 'DIRECTORY_ACTOR', 'TEST_DATABASE_URL']) delete env[name];
    // The pages' examples assume the sample data (`./directory import fixtures/projects.sample.json`).
    for (let i = 0; (await server.call('GET', '/healthz', { key: false })).status !== 200; i++) {
      if (i > 600) throw new Error('the server did not become ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    const sample = JSON.parse(readFileSync(`${root}fixtures/projects.sample.json`, 'utf8'));
    const imported = await server.call('POST', '/api/webhook/projects', {
      body: Array.isArray(sample) ? { projects: sample } : sample,
    });
    expect(imported.json).toMatchObject({ success: true, failed: 0 });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('covers every page of docs/', () => {
    const pages = readdirSync(`${root}docs`).filter((f) => f.endsWith('.md'));
    expect(pages.map((p) => `docs/${p}`).sort()).toEqual(PAGES.filter((p) => p.startsWith('docs/')).sort());
  });

  for (const page of PAGES) {
    it(`${page}: every example runs and prints what the page shows`, async () => {
      const steps = docSteps(page, readFileSync(`${root}${page}`, 'utf8'));
      const failures: string[] = [];
      // sh steps in one shell, in order; a ts step runs where it stands, between them.
      let batch: Step[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        for (const ran of await runShell(batch, env, rewrite)) check(ran);
        batch = [];
      };
      const check = ({ step, code, stdout }: Ran) => {
        if (code === -1) failures.push(`stderr of the shell:\n${stdout}`);
        else if (code !== 0)
          failures.push(`${step.where}: exit ${code}\n${step.code}\n--- printed\n${stdout}`);
        else if (step.expected !== undefined && !matches(step.expected, stdout))
          failures.push(
            `${step.where}: printed something else\n--- page\n${step.expected}\n--- printed\n${stdout}`,
          );
      };
      for (const step of steps) {
        if (step.lang === 'sh') {
          batch.push(step);
          continue;
        }
        await flush();
        check(await runTs(step, env, dir, rewrite));
      }
      await flush();
      expect(failures).toEqual([]);
    }, 300_000);
  }
});
