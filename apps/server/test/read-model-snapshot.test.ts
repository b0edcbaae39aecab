import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadModel } from '@directory/core/server';

type SearchIndex = ReadModel['index'];

import { sql } from '@directory/db';
import { afterAll, describe, expect, it } from 'vitest';
import { project, slugOf, startServer, type TestServer, targets, useServer } from './helpers.ts';

/*
 * The read model's snapshot on local disk (docs/search.md, "Restarts: the model's snapshot"):
 * a model started from a valid one answers at once and has every write made while it was
 * stopped; one of another database, of another engine, or older than the change feed still
 * holds is never served (the model is built from the database instead).
 */

const FILE = 'read-model.snapshot';

/** Rewrites the snapshot's JSON header (the bytes after it unchanged). */
function editHeader(dir: string, edit: (h: Record<string, unknown>) => void) {
  const bytes = readFileSync(join(dir, FILE));
  const length = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.subarray(12, 12 + length).toString('utf8'));
  edit(header);
  const json = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.byteLength, 0);
  writeFileSync(
    join(dir, FILE),
    Buffer.concat([bytes.subarray(0, 8), size, json, bytes.subarray(12 + length)]),
  );
}

describe.each(targets)('the read model’s snapshot on $name', (target) => {
  const s = useServer(target, {}, 120_000);
  const dirs: string[] = [];
  const others: TestServer[] = [];
  afterAll(async () => {
    for (const o of others) await o.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A model of `server`'s database keeping its snapshot in `dir`; its log lines in `lines`. */
  const model = (server: TestServer, dir: string) => {
    const lines: string[] = [];
    const m = new ReadModel({
      db: server.db.db,
      snapshots: {
        dir,
        intervalMs: 0,
        log: (message, f) => lines.push(`${message} ${f.reason ?? f.error ?? ''}`),
      },
    });
    return { m, lines };
  };
  const write = async (n = 3) => {
    const projects = Array.from({ length: n }, () => project());
    // a kept-alive connection idle past the server's keep-alive timeout (the tests above start
    // servers of their own meanwhile) may be reset as it is reused: the write is sent again
    const send = () => s.call('POST', '/api/webhook/projects', { body: { projects } });
    const r = await send().catch(send);
    expect(r.status, r.text).toBe(200);
    return projects.map(slugOf);
  };
  /** A snapshot of the server's model, taken by a model that then stops. */
  const snapshot = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-snapshot-'));
    dirs.push(dir);
    const { m, lines } = model(s, dir);
    await m.start();
    await m.stop();
    expect(lines.join('\n')).toContain('read model snapshot written');
    return dir;
  };

  it('starts from a valid snapshot and catches up with the writes made while it was stopped', async () => {
    const before = await write();
    const dir = await snapshot();
    const later = await write();
    const [gone] = before;
    expect((await s.call('DELETE', `/api/projects/${gone}`)).status).toBe(200);

    const { m, lines } = model(s, dir);
    await m.start();
    try {
      expect(lines.join('\n')).toContain('read model snapshot loaded');
      expect(m.stats().readyFrom).toBe('snapshot');
      for (const slug of [...before.slice(1), ...later]) expect(m.idOfSlug(slug), slug).toBeDefined();
      expect(m.idOfSlug(gone!)).toBeUndefined();
      // searches find the projects written while it was stopped, as the running server's model does
      const q = later[0]!.split('-').slice(2).join(' ');
      const found = m.index.findProjects({ ...query, q });
      const r = await s.call('GET', `/api/projects?q=${encodeURIComponent(q)}&limit=10`);
      expect(found.total).toBe(r.json.total);
      expect(found.hits.map((h) => h.id)).toEqual(r.json.projects.map((p: { id: string }) => p.id));
      // and it follows the feed on: a write after its start is found as from a built model
      const next = await write(1);
      await m.readable(undefined);
      const deadline = Date.now() + 5_000;
      while (m.idOfSlug(next[0]!) === undefined && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(m.idOfSlug(next[0]!)).toBeDefined();
    } finally {
      await m.stop();
    }
  });

  it('never loads a snapshot of another database', async () => {
    const dir = await snapshot();
    const other = await startServer(target);
    others.push(other);
    const { m, lines } = model(other, dir);
    await m.start();
    await m.stop();
    expect(m.stats().readyFrom).toBe('database');
    expect(lines.join('\n')).toContain('it is of another database');
  });

  it('never loads a snapshot of another version of the engine or of the format', async () => {
    for (const [field, value, reason] of [
      ['engine', '0123456789abcdef', 'another version of the search engine'],
      ['format', 0, 'it has format 0'],
    ] as const) {
      const dir = await snapshot();
      editHeader(dir, (h) => {
        h[field] = value;
      });
      const { m, lines } = model(s, dir);
      await m.start();
      await m.stop();
      expect(m.stats().readyFrom).toBe('database');
      expect(lines.join('\n')).toContain(reason);
    }
  });

  it('a snapshot that fails its checksum is not loaded, and the next save replaces it', async () => {
    for (const damage of ['flip', 'cut'] as const) {
      const dir = await snapshot();
      const file = join(dir, FILE);
      const bytes = readFileSync(file);
      // the header stays good: only the state is damaged
      if (damage === 'flip') bytes[bytes.length - 100]! ^= 0x10;
      writeFileSync(file, damage === 'flip' ? bytes : bytes.subarray(0, bytes.length - 100));
      const first = model(s, dir);
      await first.m.start();
      await first.m.stop();
      expect(first.m.stats().readyFrom, damage).toBe('database');
      expect(first.lines.join('\n'), damage).toMatch(/checksum|cannot be read/);
      expect(first.lines.join('\n'), damage).toContain('read model snapshot written');
      const second = model(s, dir);
      await second.m.start();
      await second.m.stop();
      expect(second.m.stats().readyFrom, damage).toBe('snapshot');
    }
  });

  it('builds afresh from a snapshot older than what the change feed still holds', async () => {
    const dir = await snapshot();
    const later = await write();
    // retention removed the changes after the snapshot's position (as pruneChanges does)
    await sql`
      with d as (delete from changes returning xid, id), m as (select xid, id from d order by xid desc, id desc limit 1)
      update change_feed_state set pruned_xid = m.xid, pruned_id = m.id from m
    `.execute(s.db.db);
    const { m, lines } = model(s, dir);
    await m.start();
    try {
      expect(lines.join('\n')).toContain('read model snapshot loaded');
      // what was served is the database's, not the snapshot's
      expect(m.stats().readyFrom).toBe('database');
      for (const slug of later) expect(m.idOfSlug(slug), slug).toBeDefined();
    } finally {
      await m.stop();
    }
  });
});

const query: Omit<Parameters<SearchIndex['findProjects']>[0], 'q'> = {
  tagSlugs: [],
  tagMode: 'all',
  linkTypes: [],
  sort: 'relevance',
  order: 'desc',
  limit: 10,
  facets: [],
};
