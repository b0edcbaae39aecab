import { request } from 'node:http';
import { join } from 'node:path';
import { type Child, createDatabase, type Database, ROOT, startChild } from './processes.ts';

// Wide bodies (docs/keys-and-limits.md#bodies): eight clients each send, again and again, a
// 5 MB body of 1.7 million empty items (`{"projects":[{},{},…]}`) to endpoint 1, without a key
// and then with a valid `projects:write` key, while one client asks `/healthz` every 20 ms; its
// latency (target: p99 ≤ 100 ms) against the same with no senders.

export interface WideBodiesMode {
  mode: string;
  probes: number;
  p50: number;
  p99: number;
  max: number;
  /** Bodies answered, and their statuses. */
  sent: number;
  statuses: Record<string, number>;
}

export interface WideBodiesResult {
  senders: number;
  items: number;
  bodyBytes: number;
  seconds: number;
  modes: WideBodiesMode[];
}

export const WIDE_START = '<!-- wide bodies -->';
export const WIDE_END = '<!-- /wide bodies -->';

const SENDERS = 8;
const ITEMS = 1_700_000;
const PROBE_EVERY_MS = 20;

function post(url: string, body: Buffer, key: string | undefined): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${url}/api/webhook/projects`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        ...(key && { 'x-api-key': key }),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measureMode(
  url: string,
  mode: string,
  seconds: number,
  senders: number,
  body: Buffer,
  key: string | undefined,
): Promise<WideBodiesMode> {
  const until = Date.now() + seconds * 1000;
  const statuses: Record<string, number> = {};
  let sent = 0;
  const send = async () => {
    while (Date.now() < until) {
      const status = await post(url, body, key);
      sent++;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const latencies: number[] = [];
  const probe = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const r = await fetch(`${url}/healthz`);
      await r.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  };
  await Promise.all([probe(), ...Array.from({ length: senders }, send)]);
  latencies.sort((a, b) => a - b);
  return {
    mode,
    probes: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    sent,
    statuses,
  };
}

export async function runWideBodiesBench(options: {
  adminUrl: string;
  apiKey: string;
  duration: number;
  dbPoolSize: number;
  track(x: Child | Database): void;
}): Promise<WideBodiesResult> {
  const database = await createDatabase(options.adminUrl, 'wide');
  options.track(database);
  const body = Buffer.from(`{"projects":[${'{},'.repeat(ITEMS - 1)}{}]}`);
  const seconds = Math.max(5, options.duration);
  try {
    const server = await startChild('wide-bodies-server', join(ROOT, 'apps/server/src/main.ts'), {
      DATABASE_URL: database.url,
      WEBHOOK_API_KEY: options.apiKey,
      DB_POOL_SIZE: String(options.dbPoolSize),
      LOG_LEVEL: 'warn',
      TASK_REAP_INTERVAL_MS: '0',
    });
    options.track(server);
    try {
      const created = await fetch(`${server.url}/api/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey },
        body: JSON.stringify({ name: 'wide-bodies', scopes: ['projects:write'] }),
      }).then((r) => r.json());
      const key = created.data.key as string;
      const modes = [
        await measureMode(server.url, 'no senders', seconds, 0, body, undefined),
        await measureMode(server.url, 'eight senders, no key', seconds, SENDERS, body, undefined),
        await measureMode(server.url, 'eight senders, a valid key', seconds, SENDERS, body, key),
      ];
      return { senders: SENDERS, items: ITEMS, bodyBytes: body.length, seconds, modes };
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

export function renderWideBodies(r: WideBodiesResult, note: string): string {
  const rows = r.modes.map((m) => {
    const statuses = Object.entries(m.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    return `| ${m.mode} | ${m.probes} | ${ms(m.p50)} | ${ms(m.p99)} | ${ms(m.max)} | ${m.sent} ${statuses ? `(${statuses})` : ''} |`;
  });
  return [
    WIDE_START,
    '',
    '## Wide bodies (bench/wide-bodies.ts)',
    '',
    `${r.senders} clients each send, one after another for ${r.seconds} s, a ${(r.bodyBytes / 1e6).toFixed(1)} MB body of ` +
      `${r.items.toLocaleString('en-US')} empty items (\`{"projects":[{},{},…]}\`) to endpoint 1, while one client asks ` +
      `\`/healthz\` every ${PROBE_EVERY_MS} ms (target: p99 ≤ 100 ms). \`pnpm bench -- --scenarios wide-bodies\`.`,
    '',
    '| senders | /healthz answers | p50 | p99 | max | bodies answered |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    note,
    '',
    WIDE_END,
  ].join('\n');
}

/** `text` with its wide-bodies section replaced by `section` (appended when it has none). */
export function withWideBodiesSection(text: string, section: string): string {
  const start = text.indexOf(WIDE_START);
  const end = text.indexOf(WIDE_END);
  if (start === -1 || end === -1) return `${text.trimEnd()}\n\n${section}\n`;
  return text.slice(0, start) + section + text.slice(end + WIDE_END.length);
}
