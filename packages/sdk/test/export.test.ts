import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../core/src/domain/csv.ts';
import { run } from '../src/cli/run.ts';
import { createDirectoryClient, type Project } from '../src/index.ts';

const sample = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as unknown[];

/**
 * A fetch whose answers to GET /api/export break after `bytes` bytes of their body: a connection
 * cut mid-line, every time, until `cuts` have happened.
 */
function cuttingFetch(bytes: number, cuts: number): typeof fetch {
  let left = cuts;
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!String(input).includes('/api/export') || !res.ok || left <= 0 || !res.body) return res;
    left--;
    let sent = 0;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (sent + value.length >= bytes) {
          controller.enqueue(value.subarray(0, bytes - sent));
          await reader.cancel();
          controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
          return;
        }
        sent += value.length;
        controller.enqueue(value);
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

describe('exports with the SDK and the CLI', () => {
  let s: TestServer;
  let all: Project[];
  const dir = mkdtempSync(join(tmpdir(), 'directory-export-test-'));
  beforeAll(async () => {
    s = await startServer({ postgres: false });
    // the sample, three times over (names and links made unique), for an export of 120 projects
    const projects = [0, 1, 2].flatMap((k) =>
      sample.map((p: any) => ({
        ...p,
        name: `${p.name} ${k}`,
        ...(p.nameEn && { nameEn: `${p.nameEn} ${k}` }),
        links: p.links.map((l: any, i: number) => ({
          ...l,
          url: `https://export-copy-${k}.example.org/${encodeURIComponent(p.name)}/${i}`,
        })),
      })),
    );
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects: projects.slice(0, 100) } });
    expect(r.status, r.text).toBe(200);
    expect(
      (await s.call('POST', '/api/webhook/projects', { body: { projects: projects.slice(100) } })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exportProjects yields every project in id order, as endpoint 2 answers it, with the header', async () => {
    const client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
    const exp = client.exportProjects();
    expect(exp.header).toBeUndefined();
    all = [];
    for await (const p of exp) all.push(p);
    expect(all).toHaveLength(120);
    expect(exp.header).toMatchObject({ type: 'export', version: 1, count: 120 });
    expect(exp.parts).toHaveLength(1);
    const one = await client.projects.get({ slug: all[7]!.slug });
    expect(all[7]).toEqual({ ...one.data, aliases: [] });
    const changes = await client.changes.list({ after: exp.header!.cursor });
    expect(changes.changes).toEqual([]);
  });

  it('resumes by itself after the connection is cut mid-line, every project once; the first part’s cursor', async () => {
    const resumes: (string | undefined)[] = [];
    const client = createDirectoryClient({
      baseUrl: s.baseUrl,
      apiKey: s.key,
      fetch: cuttingFetch(20_000, 6),
    });
    const exp = client.exportProjects({ onResume: (e) => resumes.push(e.after) });
    const ids: string[] = [];
    for await (const p of exp) ids.push(p.id);
    expect(ids).toEqual(all.map((p) => p.id));
    expect(resumes.length).toBe(6);
    expect(exp.parts).toHaveLength(7);
    expect(exp.header).toBe(exp.parts[0]);
    expect(exp.parts.at(-1)!.count).toBeLessThan(120);
  });

  it('gives up after its retries when nothing arrives, with the refusal as it is', async () => {
    const none = createDirectoryClient({ baseUrl: s.baseUrl });
    await expect(async () => {
      for await (const _ of none.exportProjects()) void _;
    }).rejects.toMatchObject({ status: 401, error: 'Unauthorized' });
  });

  const io = (fetchFn?: typeof fetch) => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: {
        stdin: (async function* () {})(),
        stdout: { write: (c: string) => (out.stdout += c) },
        stderr: { write: (c: string) => (out.stderr += c) },
        env: { DIRECTORY_URL: s.baseUrl, DIRECTORY_API_KEY: s.key },
        ...(fetchFn && { fetch: fetchFn }),
      },
    };
  };

  it('directory export --out FILE: the header once, every project once through cuts, progress on stderr', async () => {
    const file = join(dir, 'cut.ndjson');
    const { out, io: cliIo } = io(cuttingFetch(30_000, 3));
    expect(await run(['export', '--out', file], cliIo)).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'export', count: 120 });
    expect(lines.slice(1).map((p) => p.id)).toEqual(all.map((p) => p.id));
    expect(out.stderr).toContain('resuming after');
    expect(out.stderr).toContain('120 of 120 projects');
    // an existing file is not overwritten
    expect(await run(['export', '--out', file], io().io)).toBe(2);
  });

  it('directory export --out FILE --resume continues a file cut off mid-line', async () => {
    const file = join(dir, 'resume.ndjson');
    const whole = readFileSync(join(dir, 'cut.ndjson'), 'utf8');
    const lines = whole.split('\n');
    // the header, 50 projects, and half of the 51st
    writeFileSync(file, `${lines.slice(0, 51).join('\n')}\n${lines[51]!.slice(0, 100)}`);
    const { out, io: cliIo } = io();
    expect(await run(['export', '--out', file, '--resume'], cliIo)).toBe(0);
    expect(out.stderr).toContain(`resuming ${file} after ${JSON.parse(lines[50]!).id}`);
    const again = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(again.filter((l) => l.type === 'export')).toHaveLength(1);
    expect(again.slice(1).map((p) => p.id)).toEqual(all.map((p) => p.id));
  });

  it('directory export --format csv: a header row and one RFC 4180 row per project, through cuts', async () => {
    const { out, io: cliIo } = io(cuttingFetch(25_000, 2));
    expect(await run(['export', '--format', 'csv', '--quiet'], cliIo)).toBe(0);
    const [head, ...rows] = parseCsv(out.stdout);
    expect(head?.[0]).toBe('id');
    expect(rows.map((r) => r[0])).toEqual(all.map((p) => p.id));
    expect(rows.map((r) => r[4])).toEqual(all.map((p) => p.description));
    expect(out.stderr).not.toContain('projects\n');
  });
});
