import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect, parseDatabaseUrl, redact } from '../src/connect.ts';
import { acquireDirectoryLock } from '../src/directory-lock.ts';
import { migrateToLatest } from '../src/migrate.ts';

describe('parseDatabaseUrl', () => {
  it('reads the three kinds of DATABASE_URL', () => {
    expect(parseDatabaseUrl('postgres://u@h:5432/d')).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/d',
    });
    expect(parseDatabaseUrl('postgresql://u@h/d').kind).toBe('postgres');
    expect(parseDatabaseUrl('memory:')).toEqual({ kind: 'memory' });
    expect(parseDatabaseUrl('pglite:/var/data')).toEqual({ kind: 'pglite', dir: '/var/data' });
    expect(parseDatabaseUrl('pglite:./data').kind).toBe('pglite');
  });

  it('refuses anything else without printing a password', () => {
    expect(() => parseDatabaseUrl('mysql://root:hunter2@h/d')).toThrow(/DATABASE_URL/);
    expect(() => parseDatabaseUrl('mysql://root:hunter2@h/d')).not.toThrow(/hunter2/);
    expect(() => parseDatabaseUrl('pglite:')).toThrow();
    expect(redact('postgres://u:secret@h/d')).toBe('postgres://u:***@h/d');
  });

  it('blanks every password of a URL, wherever it is (docs/operating.md#configuration)', () => {
    const cases: [string, string][] = [
      ['postgres://u:se@cr@t@h:5432/d', 'postgres://u:***@h:5432/d'],
      ['postgres://u:a:b/c@h/d', 'postgres://u:***@h/d'],
      ['postgresql://u:p%40ss@h/d?sslmode=require', 'postgresql://u:***@h/d?sslmode=require'],
      ['postgres://u@h/d?password=s3cret&sslmode=require', 'postgres://u@h/d?password=***&sslmode=require'],
      ['postgres://h/d?sslmode=require&PASSWORD=s3cret', 'postgres://h/d?sslmode=require&PASSWORD=***'],
      ['postgres://h/d?sslpassword=s3cret', 'postgres://h/d?sslpassword=***'],
      ['postgres://u@h/d', 'postgres://u@h/d'],
      ['memory:', 'memory:'],
    ];
    for (const [url, shown] of cases) expect(redact(url), url).toBe(shown);
    for (const [url] of cases)
      for (const secret of ['se@cr@t', 'cr@t', 'a:b/c', 'p%40ss', 's3cret'])
        expect(redact(url)).not.toContain(secret);
  });
});

describe('migrations', () => {
  it('run on an empty database and again as a no-op', async () => {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      await migrateToLatest(handle.db);
      const { rows } = await handle.pool.query(
        "select table_name from information_schema.tables where table_schema = 'public' order by 1",
      );
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['discovery_tasks', 'links', 'project_tags', 'projects', 'tags']),
      );
    } finally {
      await handle.close();
    }
  });
});

describe('acquireDirectoryLock', () => {
  it('holds a directory for one process and takes over a stale lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dir-lock-'));
    try {
      const lock = acquireDirectoryLock(dir);
      expect(readFileSync(join(dir, 'directory-server.lock'), 'utf8')).toBe(String(process.pid));
      lock.release();
      // a pid that cannot be running
      writeFileSync(join(dir, 'directory-server.lock'), '999999999');
      acquireDirectoryLock(dir).release();
      // the parent process is running: the lock is held
      writeFileSync(join(dir, 'directory-server.lock'), String(process.ppid));
      expect(() => acquireDirectoryLock(dir)).toThrow(/in use by another process/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
