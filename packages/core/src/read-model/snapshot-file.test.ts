import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchIndex } from '@directory/search';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelState, SNAPSHOT_FILE, saveSnapshot } from './snapshot-file.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writing a snapshot (docs/operating.md#restarts-the-read-models-snapshot)', () => {
  it('removes the temporary files of killed writers, and only theirs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-file-'));
    dirs.push(dir);
    // a pid above any pid_max: no such process runs; the parent of this process does
    const abandoned = join(dir, `${SNAPSHOT_FILE}.999999999.tmp`);
    const writing = join(dir, `${SNAPSHOT_FILE}.${process.ppid}.tmp`);
    const other = join(dir, 'notes.tmp');
    for (const file of [abandoned, writing, other]) writeFileSync(file, 'x');
    const steps = saveSnapshot(
      dir,
      {
        database: 'db',
        cluster: 'cluster',
        horizon: '1',
        synonymsVersion: '0',
        maxUpdated: 0,
        projects: 0,
        savedAt: new Date(0).toISOString(),
      },
      new ModelState(new SearchIndex()),
    );
    while (!steps.next().done);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(writing)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(join(dir, SNAPSHOT_FILE))).toBe(true);
    expect(existsSync(join(dir, `${SNAPSHOT_FILE}.${process.pid}.tmp`))).toBe(false);
  });
});
