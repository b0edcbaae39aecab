import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, type ServerProcess, spawnServer } from './helpers.ts';
import { freePort } from './private-cluster.ts';

/**
 * The shipped nginx configuration (ops/nginx/project-directory.conf, docs/operating.md#reloads) in
 * front of two hosts of two processes each on one database, run by Debian's nginx: under a load
 * of requests through nginx, each host is reloaded in turn (SIGHUP), and no request fails. Skipped without nginx, unless REQUIRE_NGINX=1.
 */

const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const haveNginx = existsSync(NGINX);
const SHIPPED = new URL('../../../ops/nginx/project-directory.conf', import.meta.url);

/** The shipped file with only its lines marked `# yours` changed: the hosts and the port. */
function localConfig(text: string, listen: number, hosts: number[]): string {
  const queue = [...hosts];
  let marked = 0;
  const out = text
    .split('\n')
    .map((line) => {
      if (!line.endsWith('# yours')) return line;
      marked++;
      if (/^\s*listen\s/.test(line)) return line.replace(/listen\s+\S+;/, `listen 127.0.0.1:${listen};`);
      const port = queue.shift();
      return line.replace(/server\s+\S+\s/, `server 127.0.0.1:${port} `);
    })
    .join('\n');
  if (marked !== hosts.length + 1 || queue.length > 0)
    throw new Error(
      `expected ${hosts.length} host lines and a listen line marked "# yours", found ${marked}`,
    );
  return out;
}

/** nginx in the foreground in its own prefix, with the shipped file as its only site. */
async function startNginx(listen: number, hosts: number[]) {
  const dir = mkdtempSync(join(tmpdir(), 'directory-nginx-'));
  writeFileSync(join(dir, 'site.conf'), localConfig(readFileSync(SHIPPED, 'utf8'), listen, hosts));
  // the temporary files in the prefix: Debian's defaults (/var/lib/nginx) are root's
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${dir}/${kind};`)
    .join('\n');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `events { worker_connections 1024; }\nhttp {\n    access_log off;\n${temp}\n    include ${dir}/site.conf;\n}\n`,
  );
  const log = join(dir, 'error.log');
  const child: ChildProcess = spawn(
    NGINX,
    [
      '-p',
      dir,
      '-c',
      join(dir, 'nginx.conf'),
      '-e',
      log,
      '-g',
      `daemon off; pid ${dir}/nginx.pid; error_log ${log};`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 100 && (await fresh(`http://127.0.0.1:${listen}/healthz`, 2_000)) !== 200; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${out}`);
    await sleep(100);
  }
  return {
    url: `http://127.0.0.1:${listen}`,
    errors: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** GET on a new connection: the status, 0 when the connection failed, -1 when no answer came in time. */
function fresh(url: string, timeoutMs = 10_000): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    const timer = setTimeout(() => {
      resolve(-1);
      req.destroy();
    }, timeoutMs);
    req.once('close', () => clearTimeout(timer));
    req.once('error', () => resolve(0));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until `atLeast` processes of a host have built their read model. */
async function built(host: ServerProcess, atLeast: number) {
  for (let i = 0; i < 600 && (host.output().match(/"msg":"read model built"/g)?.length ?? 0) < atLeast; i++)
    await sleep(100);
  expect(host.output().match(/"msg":"read model built"/g)?.length).toBeGreaterThanOrEqual(atLeast);
}

describe('the shipped nginx file', () => {
  it('has the hosts and the port marked, and nothing else is changed', () => {
    const shipped = readFileSync(SHIPPED, 'utf8');
    const local = localConfig(shipped, 8080, [4001, 4002]);
    const changed = local.split('\n').filter((line, i) => line !== shipped.split('\n')[i]);
    expect(changed.map((line) => line.trim())).toEqual([
      'server 127.0.0.1:4001 max_fails=0;   # yours',
      'server 127.0.0.1:4002 max_fails=0;   # yours',
      'listen 127.0.0.1:8080;   # yours',
    ]);
    expect(() => localConfig(shipped, 8080, [4001])).toThrow(/marked/);
  });
});

describe.runIf(POSTGRES_URL && (haveNginx || process.env.REQUIRE_NGINX === '1'))(
  'nginx in front of two hosts',
  () => {
    it('passes every request while each host is reloaded in turn', async () => {
      if (!haveNginx) throw new Error(`REQUIRE_NGINX=1 and no ${NGINX}: apt-get install nginx-light`);
      const database = await freshPostgresDatabase();
      const ports = [await freePort(), await freePort()];
      const env = (port: number) => ({
        DATABASE_URL: database.url,
        PORT: String(port),
        WEB_CONCURRENCY: '2',
        TRUST_PROXY: '1',
        WEBHOOK_API_KEY: 'k-nginx-test-0123456789',
      });
      const hosts = await Promise.all(ports.map((port) => spawnServer(env(port))));
      await Promise.all(hosts.map((host) => built(host, 2)));
      const nginx = await startNginx(await freePort(), ports);
      try {
        // clients through nginx, each request on a new connection and given 10 s
        let running = true;
        const answers: number[] = [];
        const load = async () => {
          for (let i = 0; running; i++) {
            const path = i % 2 === 0 ? '/healthz' : '/api/projects?limit=5';
            answers.push(await fresh(`${nginx.url}${path}`));
          }
        };
        const clients = Array.from({ length: 2 }, load);
        await sleep(500);

        // each host reloaded in turn: its processes replaced one at a time
        for (const host of hosts) {
          host.child.kill('SIGHUP');
          for (let i = 0; i < 600 && !host.output().includes('"msg":"reloaded"'); i++) await sleep(100);
          expect(host.output()).toContain('"msg":"reloaded"');
        }
        await sleep(500);
        running = false;
        await Promise.all(clients);

        const failed: Record<number, number> = {};
        for (const status of answers) if (status !== 200) failed[status] = (failed[status] ?? 0) + 1;
        // the failures by status (0: the connection failed, -1: no answer in time), and nginx's log
        expect({ requests: answers.length, failed }, nginx.errors().slice(-3_000)).toEqual({
          requests: answers.length,
          failed: {},
        });
        expect(answers.length).toBeGreaterThan(100);
        // both hosts answered through nginx
        for (const host of hosts) expect(host.output()).toMatch(/"status":200[^\n]*"msg":"request"/);
      } finally {
        await nginx.stop();
        for (const host of hosts) await host.stop();
        await database.drop();
      }
    }, 120_000);
  },
);
