import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { examples, HTTP_URL_PATTERN, MAX_URL_BYTES } from '@directory/core/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { serverOpenApiDocument } from '../src/docs.ts';
import { startServer, type TestServer } from './helpers.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a tool, resolving with its output whatever its exit code (the findings are checked, not the code). */
async function tool(file: string, args: string[]): Promise<string> {
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    NO_COLOR: '1',
  };
  try {
    const { stdout } = await run(file, args, { cwd: ROOT, env, maxBuffer: 64 << 20 });
    return stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    if (!stdout) throw new Error(`${file} failed: ${stderr}`);
    return stdout;
  }
}

// With and without rate limiting, the two documents this server can serve.
describe.each([false, true])(
  'the OpenAPI document (rate limited: %s) as third-party tools read it',
  (rateLimited) => {
    const document = serverOpenApiDocument({ rateLimited });
    const file = join(dir, `openapi-${rateLimited}.json`);
    writeFileSync(file, JSON.stringify(document, null, 2));

    it('has no finding of Redocly CLI (recommended ruleset: redocly.yaml)', async () => {
      const out = await tool(bin('redocly'), [
        'lint',
        '--format',
        'json',
        '--config',
        join(ROOT, 'redocly.yaml'),
        file,
      ]);
      const report = JSON.parse(out.slice(out.indexOf('{')));
      expect(
        report.problems.map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`),
      ).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    });

    it('has no finding of Spectral (spectral:oas: .spectral.yaml), of any severity', async () => {
      const out = await tool(bin('spectral'), [
        'lint',
        '--ruleset',
        join(ROOT, '.spectral.yaml'),
        '--format',
        'json',
        '--fail-severity',
        'hint',
        file,
      ]);
      // the JSON array, then (on no finding) a sentence
      const findings = JSON.parse(out.slice(out.indexOf('['), out.lastIndexOf(']') + 1));
      expect(findings.map((f: any) => `${f.code}: ${f.message} at ${f.path.join('.')}`)).toEqual([]);
    });

    it('has no warning of openapi-typescript (what a generated client starts from)', async () => {
      // Its example check (Redocly's, stricter than the recommended ruleset: every schema closed)
      // prints warnings on stderr and still exits 0, so the output is what is checked.
      let stderr: string;
      try {
        ({ stderr } = await run(
          bin('openapi-typescript'),
          [file, '-o', join(dir, `schema-${rateLimited}.d.ts`)],
          {
            cwd: ROOT,
            env: { ...process.env, NO_COLOR: '1' },
          },
        ));
      } catch (err) {
        throw new Error(`openapi-typescript failed: ${(err as { stderr?: string }).stderr}`);
      }
      expect(
        stderr.split('\n').filter((line) => /⚠|warn|error/i.test(line) && !/^npm warn/.test(line)),
      ).toEqual([]);
      expect(readFileSync(join(dir, `schema-${rateLimited}.d.ts`), 'utf8')).toContain(
        'export interface paths',
      );
    });

    it('gives every operation a description, a contact, tags with descriptions, and explicit security', () => {
      expect(document.info.contact).toBeTruthy();
      for (const tag of document.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
      for (const [path, item] of Object.entries(document.paths ?? {})) {
        for (const [method, op] of Object.entries(item as Record<string, any>)) {
          expect(op.description, `${method} ${path}`).toMatch(/\S{3}/);
          expect(Array.isArray(op.security), `${method} ${path} security`).toBe(true);
        }
      }
    });

    it('gives every operation a request and response example that its schemas accept', () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema(document, 'doc');
      const check = (pointer: string, value: unknown, label: string) => {
        const validate = ajv.getSchema(`doc#${pointer}`);
        if (!validate) throw new Error(`no schema at ${pointer}`);
        const ok = validate(value);
        expect(ok ? [] : validate.errors, label).toEqual([]);
      };
      const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
      let operations = 0;
      for (const [path, item] of Object.entries(document.paths ?? {})) {
        for (const [method, op] of Object.entries(item as Record<string, any>)) {
          operations++;
          const at = `/paths/${esc(path)}/${method}`;
          const label = `${method.toUpperCase()} ${path}`;
          const status = op.responses['200'] ? '200' : '201';
          const content = op.responses[status].content;
          // a streamed answer (GET /api/export) is text: an example per content type
          const ok = content['application/json'] ?? {
            example: Object.values(content).map((c: any) => c.example),
          };
          expect(ok.example, `${label} response example`).toBeTruthy();
          for (const [type, media] of Object.entries(content) as [string, any][])
            check(
              `${at}/responses/${status}/content/${esc(type)}/schema`,
              type === 'application/json' ? ok.example : media.example,
              `${label} response`,
            );
          for (const [i, parameter] of (op.parameters ?? []).entries()) {
            if (parameter.required)
              expect(parameter.example, `${label} ${parameter.name}`).not.toBeUndefined();
            if (parameter.example !== undefined)
              check(`${at}/parameters/${i}/schema`, parameter.example, label);
          }
          const body = op.requestBody?.content['application/json'];
          if (op.requestBody?.required) expect(body.example, `${label} body example`).toBeTruthy();
          if (body?.example) check(`${at}/requestBody/content/application~1json/schema`, body.example, label);
          // bilingual: some text in Chinese in the request or the response, where either carries
          // text a person wrote (queue figures, change records and delivery logs carry none)
          if (!WITHOUT_PROSE.has(label))
            expect(JSON.stringify([op.parameters, body?.example, ok.example]), `${label} bilingual`).toMatch(
              /[\u4e00-\u9fff]/,
            );
        }
      }
      expect(operations).toBeGreaterThanOrEqual(10);
    });
  },
);

/** Operations whose examples hold only ids, figures, cursors and machine statuses: no prose. */
const WITHOUT_PROSE = new Set([
  'GET /api/discovery/stats',
  'GET /api/changes',
  'DELETE /api/webhooks/{id}',
  'GET /api/webhooks/{id}/deliveries',
  'POST /api/projects/duplicates/dismiss',
  'DELETE /api/projects/duplicates/dismiss',
  'PATCH /api/webhooks/{id}',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  'POST /api/webhooks/{id}/ping',
  'POST /api/webhooks/{id}/rotate-secret',
  'GET /api/restore',
]);

describe('the schemas are as tight as the server', () => {
  const document: any = serverOpenApiDocument({ rateLimited: false });
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'doc');
  const body = (path: string) =>
    ajv.getSchema(
      `doc#/paths/${path.replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`,
    )!;

  it('endpoint 10 items need at least one field, not null, as the server does', () => {
    const validate = body('/api/webhook/check-duplicates');
    expect(validate({ projects: [{ slug: 'qwen' }] })).toBe(true);
    expect(validate({ projects: [{}] })).toBe(false);
    expect(validate({ projects: [{ slug: null }] })).toBe(false);
  });

  it('every integer of a response is a non-negative count', () => {
    const integers: string[] = [];
    const visit = (node: any, at: string) => {
      if (node === null || typeof node !== 'object') return;
      if (node.type === 'integer') {
        integers.push(at);
        expect(node.minimum, at).toBe(0);
      }
      for (const [k, v] of Object.entries(node)) visit(v, `${at}/${k}`);
    };
    for (const [path, item] of Object.entries<any>(document.paths))
      for (const [method, op] of Object.entries<any>(item))
        visit(op.responses['200'] ?? op.responses['201'], `${method} ${path}`);
    visit(document.components.schemas.DiscoveryTask, 'DiscoveryTask');
    expect(integers.length).toBeGreaterThan(10);
  });
});

describe('the example values', () => {
  it('are sample projects copied unchanged from fixtures/projects.sample.json', async () => {
    const { QWEN_INPUT, DEEPSEEK_V3_INPUT } = examples;
    const sample = JSON.parse(readFileSync(join(ROOT, 'fixtures/projects.sample.json'), 'utf8'));
    expect(sample).toContainEqual(QWEN_INPUT);
    expect(sample).toContainEqual(DEEPSEEK_V3_INPUT);
  });
});

describe('the URL rule: the document and the server agree both ways', () => {
  const pattern = new RegExp(HTTP_URL_PATTERN, 'u');
  const run = Date.now().toString(36);
  const CASES: [string, boolean][] = [
    [`https://github.com/QwenLM/Qwen/${run}`, true],
    [`HTTP://EXAMPLE.ORG/${run}`, true],
    [`https://例子.中国/路径/${run}?查询=值#片段`, true],
    [`http://user:pw@example.org:8080/a/b/${run}`, true],
    [`https://example.org/${run}/[x]`, true],
    ['ftp://example.org/file', false],
    ['not a url', false],
    [`https://example.org/${run}/a b`, false],
    ['https://', false],
    ['https:///path', false],
    ['mailto:a@example.org', false],
    ['https://example.org/\t', false],
    [`https://example.org/${run}/\u3000`, false],
  ];
  let s: TestServer;
  afterAll(async () => {
    await s?.close();
  });

  it.each(CASES)('%s: matches the pattern: %s, and the server agrees', async (url, valid) => {
    expect(pattern.test(url)).toBe(valid);
    s ??= await startServer({ postgres: false });
    const reply = await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    expect(reply.status, reply.text).toBe(valid ? 200 : 400);
  });

  it('documents the 2048-byte limit, which the server enforces in bytes', async () => {
    const document: any = serverOpenApiDocument({ rateLimited: false });
    const schema = document.components.schemas.ProjectInput.properties.links.items.properties.url;
    expect(schema).toMatchObject({ pattern: HTTP_URL_PATTERN, maxLength: MAX_URL_BYTES });
    expect(schema.description).toMatch(/2048 bytes/);
    expect(schema.format).toBeUndefined();
    s ??= await startServer({ postgres: false });
    const ascii = `https://example.org/${run}/`.padEnd(MAX_URL_BYTES, 'a');
    const chinese = `https://example.org/${run}/`.padEnd(800, '中');
    const post = (url: string) =>
      s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    expect((await post(ascii)).status).toBe(200);
    expect((await post(`${ascii}a`)).status).toBe(400);
    // within maxLength in characters, over the limit in bytes
    expect(Buffer.byteLength(chinese)).toBeGreaterThan(MAX_URL_BYTES);
    expect((await post(chinese)).json.details).toEqual([
      `tasks.0.sourceUrl: Too big: expected URL to have <=2048 bytes`,
    ]);
  });
});
