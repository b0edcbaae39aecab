import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { measure } from './measure.ts';
import { type Child, createDatabase, type Database, ROOT, startChild } from './processes.ts';
import { scenarios } from './scenarios.ts';
import { seed } from './seed.ts';

// The change feed and webhooks (README "Following changes"), in the same `pnpm bench` run:
// - the upsert scenario against a server whose writes fill the change table and queue a
//   delivery for one subscribed webhook (to a local receiver answering 200), and against the
//   same server with the change triggers disabled (target: ≥ 90%);
// - feed read throughput: every change read back in pages of 1,000;
// - commit → long-polling follower latency (target: p99 < 100 ms), measured from sending the
//   write (an upper bound: it includes the write's own time) to the follower's page arriving.

export interface ChangesResult {
  projects: number;
  upsertWithout: number;
  /** The change table only, no webhook. */
  upsertTriggersOnly: number;
  upsertWith: number;
  deliveriesQueued: number;
  deliveriesDone: number;
  feedChanges: number;
  feedPerSec: number;
  latencySamples: number;
  latencyP50: number;
  latencyP99: number;
  /** The write's own time (send → its answer), for reading the latency. */
  writeP50: number;
  writeP99: number;
}

const PROJECTS = 1_000;
const LATENCY_SAMPLES = 300;

const TRIGGERS = ['projects_changes_insert', 'projects_changes_update', 'projects_changes_delete'].map(
  (t) => `alter table projects disable trigger ${t}`,
);

export async function runChangesBench(options: {
  adminUrl: string;
  apiKey: string;
  duration: number;
  warmup: number;
  upsertConnections: number;
  dbPoolSize: number;
  track(child: Child | Database): void;
}): Promise<ChangesResult> {
  const { apiKey } = options;
  const received = { count: 0 };
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.count++;
      res.writeHead(200).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await new Promise((r) => receiver.once('listening', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  async function server(label: string, withChanges: boolean, webhook = withChanges) {
    const database = await createDatabase(options.adminUrl, label);
    options.track(database);
    const handle = await connect(database.url, { poolSize: 3 });
    await migrateToLatest(handle.db);
    const seeded = await seed(handle.pool, { projects: PROJECTS, tasks: 1_000 });
    if (!withChanges) for (const statement of TRIGGERS) await handle.pool.query(statement);
    const child = await startChild(`server-${label}`, join(ROOT, 'apps/server/src/main.ts'), {
      DATABASE_URL: database.url,
      WEBHOOK_API_KEY: apiKey,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: String(options.dbPoolSize),
      WEBHOOK_ALLOW_PRIVATE: '1',
    });
    options.track(child);
    if (webhook) {
      const r = await fetch(`${child.url}/api/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ url: hookUrl, events: ['*'] }),
      });
      if (!r.ok) throw new Error(`cannot subscribe the bench webhook: ${r.status} ${await r.text()}`);
    }
    return { handle, seeded, child };
  }

  const upsertRate = async (s: Awaited<ReturnType<typeof server>>, tag: string) => {
    const upsert = scenarios(
      { apiKey, seed: s.seeded, pool: s.handle.pool, runTag: tag },
      { ...options, connections: 1, batchConnections: 1, claimsPerSecond: 1 },
    ).find((x) => x.key === 'upsert');
    if (!upsert) throw new Error('no upsert scenario');
    return (await measure(upsert, s.child, options)).itemsPerSec ?? 0;
  };

  const without = await server('changes_off', false);
  const upsertWithout = await upsertRate(without, 'choff');
  const triggersOnly = await server('changes_nohook', true, false);
  const upsertTriggersOnly = await upsertRate(triggersOnly, 'chnohook');
  await triggersOnly.child.stop();
  await triggersOnly.handle.close();
  const withChanges = await server('changes_on', true);
  const upsertWith = await upsertRate(withChanges, 'chon');
  const { rows } = await withChanges.handle.pool.query<{ n: number }>(
    'select count(*)::int as n from webhook_deliveries',
  );
  const deliveriesQueued = rows[0]?.n ?? 0;
  const deliveriesDone = received.count;
  // The deliveries still queued would hold transactions open on the cluster (the feed reads below
  // the oldest one): the latency is measured without them.
  await withChanges.child.stop();

  // Feed read throughput: the upserts of the run without a webhook, written again with the
  // triggers on (a second round of the scenario), read from the start 1,000 per page.
  for (const statement of TRIGGERS) await without.handle.pool.query(statement.replace('disable', 'enable'));
  await upsertRate(without, 'choff2');
  const read = async (url: string, after: string, limit: number, wait = 0) => {
    const r = await fetch(`${url}/api/changes?limit=${limit}&wait=${wait}${after ? `&after=${after}` : ''}`, {
      headers: { 'x-api-key': apiKey },
    });
    if (!r.ok) throw new Error(`GET /api/changes: ${r.status}`);
    return (await r.json()) as { changes: { cursor: string }[]; nextCursor: string; hasMore: boolean };
  };
  let feedChanges = 0;
  let after = '';
  const started = performance.now();
  for (;;) {
    const page = await read(without.child.url, after, 1000);
    feedChanges += page.changes.length;
    after = page.nextCursor;
    if (!page.hasMore) break;
  }
  const feedPerSec = feedChanges / ((performance.now() - started) / 1000);

  // Commit → follower: the same server.
  const url = without.child.url;
  let cursor = (await read(url, '', 1)).nextCursor;
  for (;;) {
    const page = await read(url, cursor, 1000);
    cursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  const latencies: number[] = [];
  const writes: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const polling = read(url, cursor, 100, 10);
    // Let the long-poll reach its wait before the write.
    await new Promise((r) => setTimeout(r, 5));
    const sent = performance.now();
    const write = fetch(`${url}/api/discovery/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        tasks: [{ sourceUrl: `https://bench.example.org/latency/${Date.now()}/${i}` }],
      }),
    });
    let page = await polling;
    while (page.changes.length === 0) page = await read(url, page.nextCursor, 100, 10);
    latencies.push(performance.now() - sent);
    cursor = page.nextCursor;
    await write;
    writes.push(performance.now() - sent);
  }
  latencies.sort((a, b) => a - b);
  writes.sort((a, b) => a - b);
  const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
  const pct = (q: number) => at(latencies, q);

  await without.child.stop();
  for (const s of [without, withChanges]) await s.handle.close();
  receiver.close();
  return {
    projects: PROJECTS,
    upsertWithout,
    upsertTriggersOnly,
    upsertWith,
    deliveriesQueued,
    deliveriesDone,
    feedChanges,
    feedPerSec,
    latencySamples: latencies.length,
    latencyP50: pct(0.5),
    latencyP99: pct(0.99),
    writeP50: at(writes, 0.5),
    writeP99: at(writes, 0.99),
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The "Change feed and webhooks" section of bench/LAST-RUN.md. */
export function renderChanges(r: ChangesResult): string[] {
  const ratio = r.upsertWithout > 0 ? r.upsertWith / r.upsertWithout : 0;
  return [
    '',
    '## Change feed and webhooks',
    '',
    `Each on its own database seeded with ${fmt(r.projects)} projects (bench/changes.ts). The upsert ` +
      'scenario as above, once with the change triggers disabled, once with them on and one webhook ' +
      'subscribed to every change (a local receiver answering 200; the server delivers while it upserts). ' +
      'Latency: from sending a task create to a follower long-polling GET /api/changes?wait=10 holding ' +
      'the change (so it includes the write itself).',
    '',
    '| figure | value | target |',
    '| --- | --- | --- |',
    `| upserts/s without the change table | ${fmt(r.upsertWithout)} | |`,
    `| upserts/s with the change table, no webhook | ${fmt(r.upsertTriggersOnly)} (${fmt((r.upsertTriggersOnly / (r.upsertWithout || 1)) * 100, 1)}%) | |`,
    `| upserts/s with the change table and one webhook | ${fmt(r.upsertWith)} (${fmt(ratio * 100, 1)}%) | ≥ 90%: ${ratio >= 0.9 ? 'met' : 'not met'} |`,
    `| webhook deliveries queued / sent by the end of the run | ${fmt(r.deliveriesQueued)} / ${fmt(r.deliveriesDone)} | |`,
    `| feed read throughput (${fmt(r.feedChanges)} changes, pages of 1,000) | ${fmt(r.feedPerSec)} changes/s | |`,
    `| commit → long-polling follower, p50 (${r.latencySamples} samples) | ${fmt(r.latencyP50, 1)} ms | |`,
    `| the write alone (send → answer), p50 / p99 | ${fmt(r.writeP50, 1)} / ${fmt(r.writeP99, 1)} ms | |`,
    `| commit → long-polling follower, p99 | ${fmt(r.latencyP99, 1)} ms | < 100 ms: ${r.latencyP99 < 100 ? 'met' : 'not met'} |`,
  ];
}
