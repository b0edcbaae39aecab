import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { project, startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from './cli-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'restore-cli-'));

/** More than one batch of 500. */
const PROJECTS = 620;

let source: TestServer;
/** GET /api/export's lines: its header, then its projects. */
let exported: any;
let lines: any[] = [];
const header = () => exported;

function writeExport(name: string, projects: unknown[], head: unknown = header()): string {
  const file = join(dir, name);
  writeFileSync(file, `${[head, ...projects].map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

/** Endpoint 2's answer for every project of `server`, by slug. */
async function answers(server: TestServer): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await server.call(
      'GET',
      `/api/projects?sort=created&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    for (const item of page.json.projects) {
      const r = await server.call('GET', `/api/projects/${encodeURIComponent(item.slug)}`);
      out.set(item.slug, r.text);
    }
    cursor = page.json.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

beforeAll(async () => {
  source = await startServer({ postgres: false });
  for (let i = 0; i < PROJECTS; i += 100) {
    const batch = Array.from({ length: Math.min(100, PROJECTS - i) }, () => project());
    const r = await source.call('POST', '/api/webhook/projects', { body: { projects: batch } });
    expect(r.json.failed, r.text).toBe(0);
  }
  const r = await source.call('GET', '/api/export?format=ndjson');
  const [head, ...rest] = r.text.trimEnd().split('\n');
  exported = JSON.parse(head!);
  lines = rest.map((l) => JSON.parse(l));
  expect(lines).toHaveLength(PROJECTS);
}, 180_000);

afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('directory import --restore (docs/operating.md#restore-from-an-export)', () => {
  it('restores nothing from a file with a bad line in its second batch, naming the line', async () => {
    const target = await startServer({ postgres: false });
    try {
      const bad = writeExport(
        'bad.ndjson',
        lines.map((l, i) => (i === 550 ? { ...l, links: [] } : l)),
      );
      const r = await cli(target, ['import', '--restore', bad]);
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toContain('line 552: links: Too small');
      const twice = writeExport(
        'twice.ndjson',
        lines.map((l, i) => (i === 600 ? { ...l, slug: lines[3].slug } : l)),
      );
      const t = await cli(target, ['import', '--restore', twice]);
      expect(t.code, t.stderr).not.toBe(0);
      expect(t.stderr).toContain(`line 602: slug: "${lines[3].slug}" is also on line 5`);
      const short = await cli(target, [
        'import',
        '--restore',
        writeExport('short.ndjson', lines.slice(0, 600)),
      ]);
      expect(short.code, short.stderr).not.toBe(0);
      expect(short.stderr).toContain(`its header counts ${PROJECTS} projects, the file holds 600`);
      const state = await target.call('GET', '/api/restore');
      expect(state.json.data).toMatchObject({ state: 'none', contents: { projects: 0, tags: 0 } });
    } finally {
      await target.close();
    }
  }, 120_000);

  it('restores every project as it was, then refuses a second run', async () => {
    const target = await startServer({ postgres: false });
    try {
      const file = writeExport('good.ndjson', lines);
      const r = await cli(target, ['import', '--restore', '--quiet', file]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`${PROJECTS} projects restored from the export as of`);
      const [before, after] = [await answers(source), await answers(target)];
      expect(after.size).toBe(PROJECTS);
      for (const [slug, text] of before) expect(after.get(slug), slug).toBe(text);
      const again = await cli(target, ['import', '--restore', file]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('The directory was restored from the export as of');
    } finally {
      await target.close();
    }
  }, 120_000);

  it('resumes a restore that stopped after its first batch', async () => {
    const target = await startServer({ postgres: false });
    try {
      const head = header();
      const first = await target.call('POST', '/api/restore', {
        body: { header: head, firstLine: 2, projects: lines.slice(0, 100) },
      });
      expect(first.status, first.text).toBe(200);
      const r = await cli(target, ['import', '--restore', writeExport('resume.ndjson', lines, head)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`resuming the unfinished restore: 100 of ${PROJECTS} projects restored`);
      const state = await target.call('GET', '/api/restore');
      expect(state.json.data).toMatchObject({ state: 'finished', restore: { received: PROJECTS } });
      expect((await answers(target)).size).toBe(PROJECTS);
    } finally {
      await target.close();
    }
  }, 120_000);
});
