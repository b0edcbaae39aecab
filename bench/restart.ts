import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Child, memoryOf, ROOT, startChild } from './processes.ts';

/*
 * `restart`: how soon a process is ready again on a database of this size, and its memory
 * then (docs/search.md, "Restarts: the model's snapshot"). A server with a snapshot directory
 * builds its model from the database, stops (writing its snapshot), and starts again from the
 * snapshot: both times to /healthz 200, the resident memory once ready and at its peak.
 *
 *   pnpm bench -- --sizes 1000000 --api-max 0 --scenarios restart
 *
 * or on a database seeded before (bench/seed.ts), without the bench's own server and its build:
 *
 *   node --import tsx bench/restart.ts --database-url postgres://…/db [--built]
 *
 * `--built`: the built server (apps/server/dist/main.js, what `pnpm start` and the image run),
 * not the sources through tsx, whose compiling is most of a start on a loaded machine.
 */

export interface RestartFigures {
  buildSeconds: number;
  buildResident?: number;
  buildPeak?: number;
  snapshotBytes: number;
  restartSeconds: number;
  /** From the spawn to the first answer of /healthz (503 while the model loads). */
  restartListeningSeconds: number;
  /** The snapshot's read, as the process logged it (LOG_LEVEL info). */
  loadSeconds?: number;
  restartResident?: number;
  restartPeak?: number;
}

const MB = (b: number | undefined) => (b === undefined ? '?' : `${(b / 2 ** 20).toFixed(0)} MB`);

/** The seconds of the "read model snapshot loaded" line of a process's log, if it logged one. */
function loggedLoadSeconds(output: string): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes('read model snapshot loaded')) continue;
    try {
      return (JSON.parse(line) as { seconds?: number }).seconds;
    } catch {}
  }
  return undefined;
}

export async function measureRestart(
  server: string,
  env: Record<string, string>,
  children: Set<Child>,
): Promise<RestartFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-snapshot-'));
  const withSnapshots = { ...env, READ_MODEL_SNAPSHOT_DIR: dir, READ_MODEL_SNAPSHOT_INTERVAL_S: '0' };
  const run = async (name: string) => {
    // a million projects' snapshot is written when the process stops: it is given the time
    const child = await startChild(name, server, withSnapshots, {
      readyTimeoutSeconds: 1800,
      stopTimeoutSeconds: 600,
    });
    children.add(child);
    const memory = memoryOf(child.pid);
    return { child, memory };
  };
  try {
    const first = await run('restart-build');
    await first.child.stop();
    children.delete(first.child);
    const snapshotBytes = statSync(join(dir, 'read-model.snapshot')).size;
    const second = await run('restart-snapshot');
    await second.child.stop();
    children.delete(second.child);
    const figures: RestartFigures = {
      buildSeconds: first.child.readySeconds,
      buildResident: first.memory?.rss,
      buildPeak: first.memory?.peak,
      snapshotBytes,
      restartSeconds: second.child.readySeconds,
      restartListeningSeconds: second.child.listeningSeconds,
      loadSeconds: loggedLoadSeconds(second.child.output()),
      restartResident: second.memory?.rss,
      restartPeak: second.memory?.peak,
    };
    console.log(
      `  restart: built from the database, ready after ${figures.buildSeconds.toFixed(1)} s ` +
        `(${MB(figures.buildResident)} resident, peak ${MB(figures.buildPeak)}); snapshot ${MB(snapshotBytes)}; ` +
        `from the snapshot, ready after ${figures.restartSeconds.toFixed(1)} s ` +
        `(listening after ${figures.restartListeningSeconds.toFixed(1)} s, ` +
        `snapshot read in ${figures.loadSeconds ?? '?'} s; ` +
        `${MB(figures.restartResident)} resident, peak ${MB(figures.restartPeak)})`,
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { 'database-url': { type: 'string' }, built: { type: 'boolean', default: false } },
  });
  const url = values['database-url'];
  if (!url) throw new Error('--database-url is required');
  const children = new Set<Child>();
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
  console.log(`load average before: ${load()}`);
  try {
    // under load, a build's statements of 20,000 rows may pass the default statement timeout
    await measureRestart(
      join(ROOT, values.built ? 'apps/server/dist/main.js' : 'apps/server/src/main.ts'),
      { DATABASE_URL: url, LOG_LEVEL: 'info', DB_STATEMENT_TIMEOUT_MS: '0' },
      children,
    );
  } finally {
    await Promise.allSettled([...children].map((c) => c.stop()));
  }
  console.log(`load average after: ${load()}`);
}
