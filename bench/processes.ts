import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { connect } from '../packages/db/src/index.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Database {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the server of `adminUrl`; `drop` removes it. */
export async function createDatabase(adminUrl: string, label: string): Promise<Database> {
  const name = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = await connect(adminUrl, { poolSize: 1 });
  try {
    await admin.pool.query(`create database ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = await connect(adminUrl, { poolSize: 1 });
      try {
        await c.pool.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.close();
      }
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  url: string;
  pid: number;
  /** From the spawn to the first answer of /healthz (any status), and to its first 200, in seconds. */
  listeningSeconds: number;
  readySeconds: number;
  /** The last 64 kB the process wrote to stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx <script>` from the repository root (as `pnpm start` runs the
 * server), or from `options.root` (another checkout), on a free port, and waits until GET
 * /healthz answers 200 (a server answers 503 while it builds its read model).
 */
export async function startChild(
  name: string,
  script: string,
  env: Record<string, string>,
  options: {
    root?: string;
    readyTimeoutSeconds?: number;
    nodeArgs?: string[];
    stopTimeoutSeconds?: number;
    /** A command the server runs under (e.g. `taskset -c 0-3`): node is its last argument's command. */
    wrapper?: string[];
  } = {},
): Promise<Child> {
  const port = await freePort();
  const started = performance.now();
  const args = [...(options.nodeArgs ?? []), '--import', 'tsx', script];
  const [command, ...prefix] = options.wrapper ?? [];
  const child: ChildProcess = spawn(
    command ?? process.execPath,
    command ? [...prefix, process.execPath, ...args] : args,
    {
      cwd: options.root ?? ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-65536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const timeout = options.readyTimeoutSeconds ?? 60;
  const deadline = Date.now() + timeout * 1000;
  let listeningSeconds: number | undefined;
  for (;;) {
    if (exitCode !== undefined)
      throw new Error(`${name} exited with ${exitCode} before it was ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready after ${timeout} s:\n${out}`);
    }
    const status = await fetch(`${url}/healthz`).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status;
      },
      () => 0,
    );
    if (status !== 0) listeningSeconds ??= (performance.now() - started) / 1000;
    if (status === 200) break;
    // Polled often enough to time a model build of a few seconds to within a few percent.
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    name,
    url,
    pid: child.pid!,
    listeningSeconds: listeningSeconds ?? 0,
    readySeconds: (performance.now() - started) / 1000,
    output: () => out,
    async stop() {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), (options.stopTimeoutSeconds ?? 15) * 1000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Memory {
  /** Resident set now, and its peak so far (VmRSS, VmHWM), in bytes. */
  rss: number;
  peak: number;
}

/** A process's resident memory, from /proc (Linux); undefined elsewhere or once it has exited. */
export function memoryOf(pid: number): Memory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    const rss = kB('VmRSS');
    const peak = kB('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rss, peak } : undefined;
  } catch {
    return undefined;
  }
}
