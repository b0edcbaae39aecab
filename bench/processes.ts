import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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
  /** The last 64 kB the process wrote to stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx <script>` from the repository root (as `pnpm start` runs the
 * server) on a free port, and waits until GET /healthz answers 200.
 */
export async function startChild(name: string, script: string, env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitCode !== undefined)
      throw new Error(`${name} exited with ${exitCode} before it was ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready after 60 s:\n${out}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    url,
    pid: child.pid!,
    output: () => out,
    async stop() {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
