import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasDatabase, makeDatabaseApart, PGLITE_START_PARAMS } from '../src/pglite-start.ts';

/** A new embedded directory is made by a child process (docs/operating.md#sizing). */
describe('making an embedded database apart', () => {
  it('makes a new directory database in a child, and leaves a made one alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-start-'));
    expect(hasDatabase(dir)).toBe(false);
    await makeDatabaseApart(dir);
    expect(hasDatabase(dir)).toBe(true);
    const made = statSync(join(dir, 'PG_VERSION')).mtimeMs;
    await makeDatabaseApart(dir);
    expect(statSync(join(dir, 'PG_VERSION')).mtimeMs).toBe(made);
  }, 120_000);

  it('says why when the directory cannot be made', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pglite-start-')), 'a-file');
    writeFileSync(file, 'not a directory');
    await expect(makeDatabaseApart(file)).rejects.toThrow(/cannot make the embedded database/);
  }, 120_000);

  it("starts with a smaller buffer pool than PostgreSQL's default", () => {
    expect(PGLITE_START_PARAMS.join(' ')).toMatch(/-c shared_buffers=32MB$/);
  });
});
