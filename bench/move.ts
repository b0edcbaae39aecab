import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { urlKey } from '../packages/core/src/domain/url-key.ts';
import type { ProjectInput } from '../packages/core/src/schemas/project.ts';
import { upsertInOrder } from '../packages/core/src/services/upsert.ts';
import { connect, migrateToLatest, moveDatabase } from '../packages/db/src/index.ts';
import { seededProject } from './data.ts';
import { createDatabase, type Database } from './processes.ts';

// The move from the embedded database to PostgreSQL (docs/operating.md#moving-to-postgresql):
// an embedded directory of `projects` projects written through core's upsert (every write
// stores a revision and a change), each edited `edits` times, moved into a new PostgreSQL
// database; the copy and the read-back of every row timed apart. Target: 100,000 projects with
// their history in 2 minutes or less. By hand, keeping the seeded directory between runs:
//   node --import tsx bench/move.ts --projects 100000 --edits 3 --dir /tmp/move-100k

export interface MoveBenchResult {
  projects: number;
  edits: number;
  rows: number;
  revisions: number;
  changes: number;
  seedSeconds: number;
  /** The whole move: migrations, copy, read-back, feed. */
  moveSeconds: number;
  copySeconds: number;
  verifySeconds: number;
}

const BATCH = 500;

/** An embedded directory with `projects` projects written and edited `edits` times through core's upsert. */
export async function seedEmbedded(dir: string, projects: number, edits: number): Promise<number> {
  const started = performance.now();
  const handle = await connect(`pglite:${dir}`);
  try {
    await migrateToLatest(handle.db, { urlKey });
    for (let revision = 0; revision <= edits; revision++) {
      for (let i = 0; i < projects; i += BATCH) {
        const batch = Array.from(
          { length: Math.min(BATCH, projects - i) },
          (_, k) => seededProject(i + k, revision) as ProjectInput,
        );
        await handle.db
          .transaction()
          .execute((trx) => upsertInOrder(trx, batch, { via: 'upsert', actor: 'bench' }));
      }
    }
  } finally {
    await handle.close();
  }
  return (performance.now() - started) / 1000;
}

export async function runMoveBench(options: {
  adminUrl: string;
  projects: number;
  edits: number;
  /** A directory seeded before (kept between runs), or a new one seeded and removed here. */
  dir?: string;
  track(x: Database): void;
  say?: (line: string) => void;
}): Promise<MoveBenchResult> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'bench-move-'));
  const seeded = options.dir !== undefined && existsSync(join(dir, 'PG_VERSION'));
  try {
    const seedSeconds = seeded ? 0 : await seedEmbedded(dir, options.projects, options.edits);
    const database = await createDatabase(options.adminUrl, 'move');
    options.track(database);
    const source = await connect(`pglite:${dir}`);
    const target = await connect(database.url, { poolSize: 1 });
    try {
      const marks: Record<string, number> = {};
      const started = performance.now();
      const report = await moveDatabase(source, target, {
        urlKey,
        progress: (line) => {
          if (line.startsWith('verifying')) marks.verify = performance.now();
          if (line.startsWith('advancing')) marks.feed = performance.now();
          options.say?.(line);
        },
      });
      const done = performance.now();
      const count = (name: string) => report.tables.find((t) => t.name === name)?.rows ?? 0;
      const copyStart = started;
      return {
        projects: count('projects'),
        edits: options.edits,
        rows: report.tables.reduce((n, t) => n + t.rows, 0),
        revisions: count('project_revisions'),
        changes: count('changes'),
        seedSeconds,
        moveSeconds: (done - started) / 1000,
        copySeconds: ((marks.verify ?? done) - copyStart) / 1000,
        verifySeconds: ((marks.feed ?? done) - (marks.verify ?? done)) / 1000,
      };
    } finally {
      await target.close();
      await source.close();
      await database.drop();
    }
  } finally {
    if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

export function renderMove(r: MoveBenchResult): string[] {
  return [
    `${r.projects} projects (${r.edits} edits each): ${r.revisions} revisions, ${r.changes} changes, ${r.rows} rows in all`,
    `move ${r.moveSeconds.toFixed(1)} s (copy ${r.copySeconds.toFixed(1)} s, read-back of every row ${r.verifySeconds.toFixed(1)} s); target ≤ 120 s at 100,000`,
    ...(r.seedSeconds > 0 ? [`(seeding the embedded directory took ${r.seedSeconds.toFixed(0)} s)`] : []),
  ];
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
    options: {
      projects: { type: 'string', default: '1000' },
      edits: { type: 'string', default: '3' },
      dir: { type: 'string' },
      'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    },
  });
  const result = await runMoveBench({
    adminUrl: values['database-url'],
    projects: Number(values.projects),
    edits: Number(values.edits),
    ...(values.dir ? { dir: resolve(values.dir) } : {}),
    track: () => {},
    say: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(renderMove(result).join('\n'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
