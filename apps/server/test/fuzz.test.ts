import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedRequest } from './fuzz-generated.ts';
import { keyRequest } from './fuzz-keys.ts';
import { mutatedRequest } from './fuzz-mutated.ts';
import { rawRequest } from './fuzz-raw.ts';
import { READ_ONLY_POSTS, type Req, ROUTE_NAMES, ROUTES, type RouteName } from './fuzz-routes.ts';
import { urlRequest } from './fuzz-urls.ts';
import { targets, useServer } from './helpers.ts';

/**
 * Property-based fuzzing of all ten endpoints, and of two webhook routes (rotating a secret, a
 * delivery's detail) (docs/keys-and-limits.md#hostile-input): generated, mutated and raw bodies,
 * query strings, path parameters and key variations. For every response: no 5xx, the envelope,
 * and no write by a rejected request (nor by a read). FUZZ_RUNS (default 10000) is the number of
 * requests per database target; FUZZ_SEED replays a run (fast-check prints seed and path).
 *
 * Requests are written with markers (`@@KEY@@`, `@@TASK_0@@`, …) that are replaced just before
 * sending, so a printed counterexample reads the same, and replays, whatever the ids of a run.
 * Each block's requests come from a module beside this file: fuzz-generated.ts (a),
 * fuzz-mutated.ts (b), fuzz-raw.ts (c), fuzz-urls.ts (d), fuzz-keys.ts (e), made of
 * fuzz-routes.ts, fuzz-values.ts and fuzz-valid.ts. One server per database runs all five
 * blocks, and the last test counts what they sent together.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED === undefined ? 20_261_122 : Number(process.env.FUZZ_SEED);
const BLOCK_TIMEOUT = 15 * 60_000;

const TABLES = [
  'projects',
  'tags',
  'project_tags',
  'links',
  'discovery_tasks',
  'webhooks',
  'webhook_attempts',
] as const;
type Fingerprint = Record<(typeof TABLES)[number], string>;
/**
 * Per table: row count and the newest xmin. Every committed insert or update writes a tuple
 * with a new, larger transaction id; every delete lowers the count.
 */
/** The next transaction id to be assigned: while it stays the same, nothing was written. */
const NEXT_XID = 'select pg_snapshot_xmax(pg_current_snapshot())::text as xid';
interface DbState {
  xid: string;
  tables: Fingerprint;
}
const FINGERPRINT = `select ${TABLES.map((t) => `(select count(*) || ':' || coalesce(max(xmin::text::bigint), 0) from ${t}) as ${t}`).join(', ')}`;

interface Reply {
  status: number;
  text: string;
  contentType: string | null;
  json?: any;
}

/** What is wrong with a response's envelope, if anything. */
function envelopeProblem(res: Reply): string | undefined {
  if (res.status >= 500) return `status ${res.status}`;
  try {
    res.json = JSON.parse(res.text);
  } catch {
    return 'the body is not JSON';
  }
  const json = res.json;
  if (!res.contentType?.startsWith('application/json')) return `content-type ${res.contentType}`;
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    return 'the body is not a JSON object';
  if (typeof json.success !== 'boolean') return '`success` is not a boolean';
  if (json.success) return res.status === 200 ? undefined : `success with status ${res.status}`;
  if (res.status < 400) return `a failure with status ${res.status}`;
  if (typeof json.error !== 'string' || json.error === '') return '`error` is not a non-empty string';
  if (!Array.isArray(json.details) || !json.details.every((d: unknown) => typeof d === 'string')) {
    return '`details` is not an array of strings';
  }
  return undefined;
}

describe.each(targets)('fuzzing every endpoint on $name', (target) => {
  const s = useServer(target);
  let values: Record<string, string> = {};
  let last: DbState | undefined;
  let sent = 0;
  let statuses: Record<number, number> = {};
  const perRoute: Partial<Record<RouteName, number>> = {};
  let seeds = 0;
  const report: string[] = [];

  const resolve = (text: string) => text.replace(/@@([A-Z0-9_]+)@@/g, (m, name: string) => values[name] ?? m);

  /** The database's fingerprint, taken again only when a transaction id was used since `previous`. */
  async function dbState(previous?: DbState): Promise<DbState> {
    const xid = (await s.db.pool.query(NEXT_XID)).rows[0].xid as string;
    if (previous?.xid === xid) return previous;
    return { xid, tables: (await s.db.pool.query(FINGERPRINT)).rows[0] };
  }

  /** Two projects and five tasks (PENDING, IN_PROGRESS, FAILED, COMPLETED, retried), fresh per block. */
  async function seed() {
    const n = ++seeds;
    const base = `https://seed.example.org/${n}`;
    const project = (name: string, links: { type: string; url: string }[]) => ({
      name: `种子 ${n} ${name}`,
      nameEn: `Seed ${n} ${name}`,
      description: 'A project seeded for fuzzing.',
      tags: [{ name: 'seed' }],
      links,
    });
    const a = project('A', [
      { type: 'CODEHOST', url: `${base}/code` },
      { type: 'WEBSITE', url: `${base}/web` },
    ]);
    const b = project('B', [{ type: 'PAPER', url: `${base}/paper` }]);
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await s.call(method, path, { body });
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(200);
      return r;
    };
    await call('POST', '/api/webhook/projects', { projects: [a, b] });
    const taskUrls = Array.from({ length: 5 }, (_, i) => `${base}/task/${i}`);
    await call('POST', '/api/discovery/tasks', { tasks: taskUrls.map((sourceUrl) => ({ sourceUrl })) });
    const { rows } = await s.db.pool.query(
      'select id, source_url from discovery_tasks where source_url = any($1::text[])',
      [taskUrls],
    );
    const ids = taskUrls.map((u) => rows.find((r: any) => r.source_url === u)!.id as string);
    const patch = (i: number, status: string) => call('PATCH', `/api/discovery/tasks/${ids[i]}`, { status });
    await patch(1, 'IN_PROGRESS');
    await patch(2, 'IN_PROGRESS');
    await patch(2, 'FAILED');
    await call('POST', `/api/discovery/tasks/${ids[3]}/complete`, { explorationData: a });
    await patch(4, 'IN_PROGRESS');
    await patch(4, 'FAILED');
    await patch(4, 'PENDING');
    // A webhook (never sent to: no dispatcher runs here) with an attempt at a change and a ping, and
    // another webhook's attempt.
    const hook = async () =>
      (await call('POST', '/api/webhooks', { url: `https://203.0.113.9/${n}`, events: ['*'] })).json.webhook
        .id as string;
    const [webhook, other] = [await hook(), await hook()];
    await call('POST', '/api/discovery/tasks', { tasks: [{ sourceUrl: `${base}/task/hooked` }] });
    const attempts = await s.db.pool.query(
      `insert into webhook_attempts (webhook_id, delivery_id, change_id, type, message_id, event, status_code,
         error, success, duration_ms, request_url, request_headers, request_body, response_headers, response_body)
       select webhook_id, id, change_id, 'change', null, 'task.created', 503, 'HTTP 503', false, 9,
         'https://203.0.113.9/', '{"webhook-id":"chg_1"}'::jsonb, '{}', '{"retry-after":"1"}'::jsonb, 'busy'
       from webhook_deliveries where webhook_id = any($1::text[])
       union all
       select $2, null, null, 'ping', 'ping_seed', 'ping', null, 'no answer', false, 9,
         'https://203.0.113.9/', '{}'::jsonb, '{"type":"ping"}', null, null
       returning id::text, webhook_id, type`,
      [[webhook, other], webhook],
    );
    const attemptOf = (w: string, type: string) =>
      attempts.rows.find((r: any) => r.webhook_id === w && r.type === type)!.id as string;
    const slugs = await s.db.pool.query(
      'select p.slug, l.url from projects p join links l on l.project_id = p.id where l.url = any($1::text[])',
      [[`${base}/code`, `${base}/paper`]],
    );
    const slugOf = (url: string) => slugs.rows.find((r: any) => r.url === url)!.slug as string;
    values = {
      KEY: s.key,
      KEY_UPPER: s.key.toUpperCase(),
      KEY_PREFIX: s.key.slice(0, -1),
      SLUG_A: slugOf(`${base}/code`),
      SLUG_B: slugOf(`${base}/paper`),
      URL_CODE: `${base}/code`,
      URL_WEB: `${base}/web`,
      URL_TASK_0: taskUrls[0]!,
      URL_TASK_3: taskUrls[3]!,
      WEBHOOK: webhook,
      ATTEMPT: attemptOf(webhook, 'change'),
      PING: attemptOf(webhook, 'ping'),
      OTHER_ATTEMPT: attemptOf(other, 'change'),
      ...Object.fromEntries(ids.map((id, i) => [`TASK_${i}`, id])),
    };
    last = undefined;
  }

  async function send(r: Req): Promise<Reply> {
    const headers = new Headers();
    for (const [k, v] of r.headers) headers.append(k, resolve(v));
    const body = typeof r.body === 'string' ? resolve(r.body) : r.body;
    const res = await fetch(s.baseUrl + resolve(r.path), { method: r.method, headers, body });
    sent++;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (r.method === ROUTES[r.route].method) perRoute[r.route] = (perRoute[r.route] ?? 0) + 1;
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
  }

  /** Sends one request and checks the properties every response must have. */
  async function exercise(r: Req): Promise<void> {
    const before = last ?? (await dbState());
    last = undefined;
    const res = await send(r);
    const after = await dbState(before);
    last = after;
    const fail = (problem: string) => {
      throw new Error(`${problem}\n  → ${res.status} ${res.text.slice(0, 500)}`);
    };
    const envelope = envelopeProblem(res);
    if (envelope) fail(envelope);
    if (r.expect401 && (res.status !== 401 || res.json.error !== 'Unauthorized')) {
      fail('a request without a valid key was not refused with 401');
    }
    const readOnly =
      r.method === 'GET' || (r.method === 'POST' && READ_ONLY_POSTS.has(r.path.split('?')[0] ?? ''));
    if (res.status < 400 && !readOnly) return;
    const changed = TABLES.filter((t) => before.tables[t] !== after.tables[t]);
    if (changed.length === 0) return;
    // The one documented write of a refusal: complete with invalid data marks the task FAILED.
    if (
      res.status === 400 &&
      res.json.error === 'Invalid exploration data format' &&
      changed.length === 1 &&
      changed[0] === 'discovery_tasks' &&
      before.tables.discovery_tasks.split(':')[0] === after.tables.discovery_tasks.split(':')[0]
    ) {
      const newest = Number(before.tables.discovery_tasks.split(':')[1]);
      const { rows } = await s.db.pool.query(
        'select id, status from discovery_tasks where xmin::text::bigint > $1',
        [newest],
      );
      const resolved = resolve(r.path);
      if (rows.length === 1 && rows[0].status === 'FAILED' && resolved.includes(`/${rows[0].id}/complete`))
        return;
    }
    fail(`${readOnly ? 'a read' : 'a refused request'} wrote to ${changed.join(', ')}`);
  }

  async function fuzz(name: string, share: number, arbitrary: fc.Arbitrary<Req>) {
    await seed();
    const numRuns = Math.ceil(RUNS * share);
    const before = sent;
    statuses = {};
    const started = performance.now();
    await fc.assert(fc.asyncProperty(arbitrary, exercise), { seed: SEED, numRuns });
    const seconds = (performance.now() - started) / 1000;
    const tally = Object.entries(statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    report.push(`${name}: ${sent - before} requests in ${seconds.toFixed(1)} s (${tally})`);
  }

  it('(a) bodies generated from scratch', () => fuzz('generated', 0.25, generatedRequest), BLOCK_TIMEOUT);
  it('(b) valid bodies, mutated', () => fuzz('mutated', 0.35, mutatedRequest), BLOCK_TIMEOUT);
  it(
    '(c) raw bodies: not JSON, truncated, BOM, odd literals, content types',
    () => fuzz('raw', 0.1, rawRequest),
    BLOCK_TIMEOUT,
  );
  it('(d) query strings and path parameters', () => fuzz('urls', 0.2, urlRequest), BLOCK_TIMEOUT);
  it('(e) key variations', () => fuzz('keys', 0.1, keyRequest), BLOCK_TIMEOUT);

  it(`sent at least FUZZ_RUNS (${RUNS}) requests`, () => {
    const routes = ROUTE_NAMES.map((r) => `${ROUTES[r].method} ${ROUTES[r].path} ×${perRoute[r] ?? 0}`);
    console.info(
      `fuzz on ${target.name} (seed ${SEED}): ${sent} requests\n  ${[...report, ...routes].join('\n  ')}`,
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    for (const route of ROUTE_NAMES) expect(perRoute[route], route).toBeGreaterThan(0);
  });
});
