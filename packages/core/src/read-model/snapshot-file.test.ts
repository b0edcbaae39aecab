import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchIndex } from '@directory/search';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSnapshot, ModelState, SNAPSHOT_FILE, saveSnapshot, verifySnapshot } from './snapshot-file.ts';

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

  const header = {
    database: 'db',
    cluster: 'cluster',
    horizon: '1',
    synonymsVersion: '0',
    maxUpdated: 0,
    projects: 0,
    savedAt: new Date(0).toISOString(),
  };
  const save = (dir: string) => {
    const steps = saveSnapshot(dir, header, new ModelState(new SearchIndex()));
    while (!steps.next().done);
  };
  const whole = (dir: string) => {
    const steps = verifySnapshot(dir);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value !== undefined;
    }
  };
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-file-'));
    dirs.push(dir);
    return dir;
  };

  it('the directory is 0700 and the file 0600, also in a directory that was open', () => {
    const parent = fresh();
    const made = join(parent, 'made');
    chmodSync(parent, 0o755);
    for (const dir of [made, parent]) {
      save(dir);
      expect(statSync(dir).mode & 0o777, dir).toBe(0o700);
      expect(statSync(join(dir, SNAPSHOT_FILE)).mode & 0o777, dir).toBe(0o600);
    }
  });

  it('never writes through a link planted where its temporary file goes', () => {
    const dir = fresh();
    const victim = join(fresh(), 'victim');
    writeFileSync(victim, 'keep me');
    const temporary = join(dir, `${SNAPSHOT_FILE}.${process.pid}.tmp`);
    symlinkSync(victim, temporary);
    save(dir);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(join(dir, SNAPSHOT_FILE)).isFile()).toBe(true);
    expect(existsSync(temporary)).toBe(false);
    expect(whole(dir)).toBe(true);
  });

  it('a flipped byte or a cut-short file fails its checksum: not loaded, not whole', () => {
    const accept = () => undefined;
    const dir = fresh();
    save(dir);
    const file = join(dir, SNAPSHOT_FILE);
    expect('state' in loadSnapshot(dir, accept)).toBe(true);
    const good = readFileSync(file);
    for (const at of [good.length - 40, good.length - 1, 200]) {
      const bad = Buffer.from(good);
      bad[at]! ^= 0x01;
      writeFileSync(file, bad);
      expect(loadSnapshot(dir, accept), String(at)).toEqual({
        reason: expect.stringMatching(/checksum|cannot be read/),
      });
      expect(whole(dir), String(at)).toBe(false);
    }
    writeFileSync(file, good);
    truncateSync(file, good.length - 10);
    expect(loadSnapshot(dir, accept)).toEqual({ reason: 'it fails its checksum (damaged or cut short)' });
    expect(whole(dir)).toBe(false);
  });
});
