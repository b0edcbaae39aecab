import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import { afterAll, describe, expect, it } from 'vitest';
import { readNdjson } from './export-helpers.ts';
import { project, useServer } from './helpers.ts';

// examples/mirror (examples/mirror/README.md): killed with SIGKILL during its export and again while it
// follows the feed, restarted each time, its SQLite copy ends equal to the directory.
const MIRROR = fileURLToPath(new URL('../../../examples/mirror/mirror.mjs', import.meta.url));

interface Mirror {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

describe('examples/mirror', () => {
  const s = useServer({ postgres: false });
  const dir = mkdtempSync(join(tmpdir(), 'mirror-'));
  const file = join(dir, 'copy.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function start(args: string[] = []): Mirror {
    const child = spawn(process.execPath, [MIRROR, ...args], {
      env: { ...process.env, BASE_URL: s.baseUrl, API_KEY: s.key, MIRROR_DB: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const waiters: { pattern: RegExp; resolve: () => void }[] = [];
    const onData = (d: Buffer) => {
      out += d;
      for (const w of waiters.splice(0)) {
        if (w.pattern.test(out)) w.resolve();
        else waiters.push(w);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return {
      child,
      output: () => out,
      exited,
      waitFor: (pattern) =>
        new Promise<void>((resolve, reject) => {
          if (pattern.test(out)) return resolve();
          waiters.push({ pattern, resolve });
          void exited.then(() => reject(new Error(`mirror exited before ${pattern}:\n${out}`)));
        }),
    };
  }

  async function kill(m: Mirror) {
    m.child.kill('SIGKILL');
    await m.exited;
  }

  async function upsert(inputs: Record<string, unknown>[]) {
    const results: { id: string; slug: string }[] = [];
    for (let i = 0; i < inputs.length; i += 100) {
      const r = await s.call('POST', '/api/webhook/projects', {
        body: { projects: inputs.slice(i, i + 100) },
      });
      expect(r.status, r.text).toBe(200);
      results.push(...r.json.results);
    }
    return results;
  }

  it('ends equal to the directory after SIGKILLs during the export and during the feed', async () => {
    const inputs = Array.from({ length: 700 }, () => project());
    const seeded = await upsert(inputs);

    // 1. Killed once its first transaction of the export is on disk.
    const first = start();
    await first.waitFor(/export: 200\/700 stored/);
    await kill(first);
    expect(first.output()).not.toMatch(/export: 700\/700/);
    // Between the two parts of the export: updates (some of projects the first part stored, which
    // only the FIRST part's cursor brings back) and a create.
    await upsert(inputs.slice(100, 140).map((p) => ({ ...p, description: 'Changed between the parts.' })));
    await upsert([project()]);

    // 2. Restarted: the export resumes after the last stored id, then the feed is followed.
    const second = start();
    await second.waitFor(/feed: following/);
    expect(second.output()).toMatch(/resumed after/);
    await upsert(Array.from({ length: 5 }, () => project()));
    await upsert(inputs.slice(0, 5).map((p) => ({ ...p, description: 'Changed while mirrored.' })));
    await second.waitFor(/feed: \d+ changes/);
    await kill(second);

    // 3. Writes while it is down: an update, a delete, a merge, a create.
    await upsert(inputs.slice(10, 12).map((p) => ({ ...p, description: 'Changed while down.' })));
    expect((await s.call('DELETE', `/api/projects/${seeded[20]?.slug}`)).status).toBe(200);
    const merged = await s.call('POST', `/api/projects/${seeded[30]?.slug}/merge`, {
      body: { into: seeded[31]?.slug },
    });
    expect(merged.status).toBe(200);
    await upsert([project()]);

    // 4. Restarted with --once: it stops when caught up.
    const third = start(['--once']);
    expect(await third.exited, third.output()).toBe(0);
    expect(third.output()).toMatch(/export: already finished/);
    expect(third.output()).toMatch(/feed: caught up/);

    const directory = new Map<string, string>();
    const exported = await s.call('GET', '/api/export?format=ndjson&status=ALL');
    for (const line of readNdjson(exported.text).projects) directory.set(line.id, line.updatedAt);
    expect(directory.size).toBe(700 + 1 + 5 + 1 - 2);

    const SQL = await initSqlJs();
    const copy = new SQL.Database(readFileSync(file));
    const rows = copy.exec('SELECT id, updated_at, body FROM projects')[0]?.values ?? [];
    const mirrored = new Map(rows.map(([id, updatedAt]) => [String(id), String(updatedAt)]));
    expect(mirrored.size).toBe(rows.length);
    expect(mirrored).toEqual(directory);
    expect(mirrored.has(seeded[20]?.id ?? '')).toBe(false);
    expect(mirrored.has(seeded[30]?.id ?? '')).toBe(false);
    copy.close();
  }, 120_000);
});
