import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { receiver } from './feed-receivers.ts';
import { databaseFor, project, type ServerProcess, spawnServer, targets } from './helpers.ts';

// Deliveries queued by a burst of writes (docs/changes-and-webhooks.md#webhooks--key): a webhook subscribed
// while the burst runs receives every change written after it, each once, and nothing of a write
// that rolled back. On PostgreSQL the dispatcher sends from its own thread.

const KEY = 'webhook-burst-key';
const CLIENTS = 4;
const BATCHES = 8;
const PER_BATCH = 25;

describe.each(targets)('webhooks under a burst of writes on $name', (target) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a webhook subscribed mid-burst receives every later change once, nothing rolled back', async () => {
    const hook = await receiver();
    cleanups.push(hook.close);
    const hookUrl = hook.url;
    // deliveries received, by the change's feed cursor; the slugs of the project.created ones
    const parsed = () =>
      hook.received.map(
        (body) => JSON.parse(body) as { type: string; data: { cursor: string; slug: string } },
      );
    const created = () =>
      new Set(
        parsed()
          .filter((m) => m.type === 'project.created')
          .map((m) => m.data.slug),
      );

    const databaseUrl = await databaseFor(target, cleanups, 'webhooks-burst-');
    const s: ServerProcess = await spawnServer({
      DATABASE_URL: databaseUrl,
      WEBHOOK_API_KEY: KEY,
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '100',
    });
    cleanups.push(() => s.stop('SIGKILL'));

    // The burst: CLIENTS writers, each sending BATCHES batches one after the other. The webhook is
    // subscribed once the first batches are in; the slugs of batches sent after that are noted.
    let subscribed = false;
    const after: string[] = [];
    let first: () => void;
    const firstBatches = new Promise<void>((r) => {
      first = r;
    });
    let done = 0;
    const writer = async () => {
      for (let b = 0; b < BATCHES; b++) {
        const late = subscribed;
        const r = await s.call('POST', '/api/webhook/projects', {
          body: { projects: Array.from({ length: PER_BATCH }, () => project()) },
        });
        expect(r.status).toBe(200);
        expect(r.json.created).toBe(PER_BATCH);
        if (late) after.push(...r.json.results.map((x: { slug: string }) => x.slug));
        if (++done === CLIENTS) first();
      }
    };
    const burst = Promise.all(Array.from({ length: CLIENTS }, writer));
    await firstBatches;
    const sub = await s.call('POST', '/api/webhooks', { body: { url: hookUrl, events: ['*'] } });
    expect(sub.status).toBe(200);
    subscribed = true;
    await burst;
    expect(after.length).toBeGreaterThan(0);

    // A write that rolls back: its change and its delivery were queued in its transaction, and go with it.
    if (target.postgres) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query('begin');
        const u = await client.query(`update projects set description = 'rolled back' where slug = $1`, [
          after[0],
        ]);
        expect(u.rowCount).toBe(1);
        await client.query('rollback');
      } finally {
        await client.end();
      }
    }

    // the project.created of every project written after the subscription
    const deadline = Date.now() + 60_000;
    const missing = () => {
      const seen = created();
      return after.filter((slug) => !seen.has(slug));
    };
    while (missing().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(missing()).toEqual([]);
    // nothing more comes: each received once, and every one of them a committed change of the feed
    await new Promise((r) => setTimeout(r, 500));
    const received = new Map<string, number>();
    for (const m of parsed()) received.set(m.data.cursor, (received.get(m.data.cursor) ?? 0) + 1);
    expect([...received.values()].filter((n) => n !== 1)).toEqual([]);
    const feed = await s.call('GET', '/api/changes?limit=1000');
    const cursors = new Set<string>(feed.json.changes.map((c: { cursor: string }) => c.cursor));
    expect(cursors.size).toBe(CLIENTS * BATCHES * PER_BATCH);
    expect([...received.keys()].filter((cursor) => !cursors.has(cursor))).toEqual([]);

    // where it was sent from: its own thread on PostgreSQL, the event loop on PGlite (one connection)
    expect(s.output().includes('"thread":"webhooks"')).toBe(target.postgres);
  }, 120_000);
});
