import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readNdjson } from './export-helpers.ts';
import { type TestServer, targets, useServer } from './helpers.ts';

/**
 * Writes racing an export (docs/changes-and-webhooks.md#export-then-follow): every write to a
 * project is either in the export, or after its cursor in the feed — never both, never neither.
 */

const writer = (n: number) => ({
  name: `竞速项目 ${n}`,
  nameEn: `Race project ${n}`,
  links: [{ type: 'CODEHOST', url: `https://github.com/export-race/p${n}` }],
  tags: [{ name: '竞速', nameEn: 'Race' }],
});
const version = (description: string) => Number(/ v(\d+) /.exec(description)?.[1] ?? Number.NaN);

/** Every change after `cursor`, read until the feed has none. */
async function changesAfter(s: TestServer, cursor: string): Promise<any[]> {
  const all: any[] = [];
  let after = cursor;
  for (;;) {
    const r = await s.call('GET', `/api/changes?after=${after}&limit=1000`);
    expect(r.status, r.text).toBe(200);
    all.push(...r.json.changes);
    after = r.json.nextCursor;
    if (!r.json.hasMore) return all;
  }
}

describe.each(targets)('exports racing writes on $name', (target) => {
  const s = useServer(target);

  it('each write is in the export or after its cursor, exactly once, per project', async () => {
    const projects = target.postgres ? 24 : 12;
    const writes = new Map<number, number>();
    let stop = false;
    // one sequential writer per project (versions 1, 2, 3…), all projects at once
    const write = async (n: number) => {
      while (!stop) {
        const v = (writes.get(n) ?? 0) + 1;
        const r = await s.call('POST', '/api/webhook/projects', {
          body: { projects: [{ ...writer(n), description: `Race project ${n} v${v} of the export test` }] },
        });
        expect(r.status, r.text).toBe(200);
        writes.set(n, v);
      }
    };
    const writers = Array.from({ length: projects }, (_, n) => write(n));
    const exports: { header: any; projects: any[] }[] = [];
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      const r = await s.call('GET', '/api/export');
      expect(r.status, r.text).toBe(200);
      exports.push(readNdjson(r.text));
    }
    stop = true;
    await Promise.all(writers);
    let checked = 0;
    for (const exp of exports) {
      const after = await changesAfter(s, exp.header.cursor);
      for (let n = 0; n < projects; n++) {
        const line = exp.projects.find((p) => p.nameEn === `Race project ${n}`);
        const inExport = line ? version(line.description) : 0;
        const id =
          line?.id ??
          (
            await s.call('GET', `/api/projects?q=${encodeURIComponent(`Race project ${n}`)}`)
          ).json.projects.find((p: any) => p.nameEn === `Race project ${n}`)?.id;
        const later = after.filter((c) => c.projectId === id && c.type.startsWith('project.')).length;
        // versions 1..inExport are in the export, the rest after the cursor: each exactly once
        expect(inExport + later, `project ${n}: ${inExport} in the export, ${later} after its cursor`).toBe(
          writes.get(n),
        );
        checked++;
      }
      expect(exp.header.count).toBe(exp.projects.length);
    }
    expect(checked).toBe(projects * exports.length);
    // the writes really raced: some exports hold a project mid-way through its versions
    expect(
      exports.some(
        (e) =>
          (e.projects.length > 0 && e.projects.length < projects) ||
          e.projects.some((p) => version(p.description) > 1),
      ),
    ).toBe(true);
  }, 120_000);

  it.runIf(target.postgres)(
    'waits for a snapshot the feed can follow from: a change committed past a transaction still open is not a cursor',
    async () => {
      const first = await s.call('POST', '/api/webhook/projects', {
        body: { projects: [{ ...writer(1000), description: 'Before the held transaction' }] },
      });
      expect(first.status).toBe(200);
      const held = new pg.Client({ connectionString: s.databaseUrl });
      await held.connect();
      try {
        // an older transaction with a change of its own, open while a newer one commits
        await held.query('begin');
        await held.query(`insert into changes (type, project_id, slug) values ('task.updated', null, null)`);
        const newer = await s.call('POST', '/api/webhook/projects', {
          body: { projects: [{ ...writer(1001), description: 'Committed while an older one is open' }] },
        });
        expect(newer.status).toBe(200);
        const started = Date.now();
        const pending = s.call('GET', '/api/export');
        await new Promise((resolve) => setTimeout(resolve, 400));
        await held.query('commit');
        const r = await pending;
        expect(r.status, r.text).toBe(200);
        // it had to wait for the older transaction to end
        expect(Date.now() - started).toBeGreaterThanOrEqual(400);
        const { header } = readNdjson(r.text);
        expect(await changesAfter(s, header.cursor)).toEqual([]);
        // and held open longer than 5 s: 503 with Retry-After, nothing started
        await held.query('begin');
        await held.query(`insert into changes (type, project_id, slug) values ('task.updated', null, null)`);
        await s.call('POST', '/api/webhook/projects', {
          body: { projects: [{ ...writer(1001), description: 'Committed again while one is open' }] },
        });
        const refused = await s.call('GET', '/api/export');
        expect(refused.status, refused.text).toBe(503);
        expect(refused.headers.get('retry-after')).toBeTruthy();
        expect(refused.json.error).toBe('Service Unavailable');
        await held.query('commit');
      } finally {
        await held.end();
      }
    },
    30_000,
  );
});
