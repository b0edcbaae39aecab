import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/*
 * Throwaway PostgreSQL clusters for the tests that stop, pause and restart their database
 * (faults-postgres-stopped.test.ts, standby-cluster.ts): initdb, or pg_basebackup of another
 * cluster for a hot standby, in a temporary directory, on a free port, TCP on 127.0.0.1 only.
 * As root (CI), the PostgreSQL tools run as the `postgres` user through runuser: initdb and
 * postgres refuse root.
 */

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

export type PostgresTools = { bin: string; owner?: { uid: number; gid: number } };

/** The PostgreSQL binaries (initdb, pg_ctl) and who runs them, or why the tests cannot. */
export function findPostgres(): PostgresTools | { reason: string } {
  const candidates = [process.env.PG_BIN];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {}
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {}
  const bin = candidates.find(
    (dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')),
  );
  if (!bin) return { reason: 'no initdb/pg_ctl found (set PG_BIN to the PostgreSQL bin directory)' };
  if (!isRoot) return { bin };
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    execFileSync('runuser', ['--help'], { stdio: 'ignore' });
    return { bin, owner: { uid: id('-u'), gid: id('-g') } };
  } catch {
    return { reason: 'running as root without a postgres user and runuser to run initdb and pg_ctl as' };
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivateCluster {
  port: number;
  /** The superuser's connection string, with a password that trust authentication ignores. */
  url(password: string, database?: string): string;
  start(): Promise<void>;
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /**
   * Sends `signal` to the postmaster and every process it started: SIGSTOP makes the cluster
   * accept connections and answer nothing (connections already open included), SIGCONT resumes it.
   */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void;
  destroy(): Promise<void>;
}

/** The processes whose parent is `parent` (from /proc: Linux). */
function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(name));
    } catch {}
  }
  return pids;
}

/**
 * A cluster of its own (initdb), or with `standbyOf` a hot standby of that running cluster
 * (pg_basebackup -R -X stream: it streams from it once started). `settings` are extra
 * `-c name=value` server settings.
 */
export async function createCluster(
  postgres: PostgresTools,
  options: { standbyOf?: PrivateCluster; settings?: string[] } = {},
): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'directory-pg-'));
  if (postgres.owner) chownSync(dir, postgres.owner.uid, postgres.owner.gid);
  const data = join(dir, 'data');
  const exec = (tool: string, args: string[]) => {
    const path = join(postgres.bin, tool);
    return postgres.owner
      ? run('runuser', ['-u', 'postgres', '--', path, ...args], { timeout: 120_000 })
      : run(path, args, { timeout: 120_000 });
  };
  const port = await freePort();
  const settings = (options.settings ?? []).map((s) => `-c ${s}`).join(' ');
  const cluster: PrivateCluster = {
    port,
    url: (password, database = 'postgres') => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    async start() {
      const flags = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off ${settings}`;
      await exec('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', flags, '-w', '-t', '120', 'start']);
    },
    async stop(mode) {
      await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '120', 'stop']);
    },
    signal(signal) {
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      // the postmaster first on stop (it starts no new process), last on resume
      const pids = [postmaster, ...childrenOf(postmaster)];
      for (const pid of signal === 'SIGSTOP' ? pids : pids.reverse()) {
        try {
          process.kill(pid, signal);
        } catch {}
      }
    },
    async destroy() {
      if (existsSync(join(data, 'postmaster.pid'))) await cluster.stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    if (options.standbyOf) {
      const from = options.standbyOf.port;
      await exec('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(from),
        '-U',
        'postgres',
        '-D',
        data,
        '-R',
        '-X',
        'stream',
        '--checkpoint=fast',
      ]);
    } else {
      await exec('initdb', [
        '-D',
        data,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ]);
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return cluster;
}
