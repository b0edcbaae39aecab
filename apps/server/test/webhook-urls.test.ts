import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Database, insertWebhook, type Kysely, migrateToLatest, sql } from '@directory/db';
import { afterEach, describe, expect, it } from 'vitest';
import { receiver } from './feed-receivers.ts';
import {
  freshPostgresDatabase,
  project,
  type ServerProcess,
  spawnServer,
  startServer,
  targets,
} from './helpers.ts';

/*
 * One URL parser (docs/changes-and-webhooks.md#webhooks--key): a webhook URL the WHATWG parser refuses is
 * 400 at create and edit, and one stored before that rule (or any error while sending) is a failed
 * attempt of its webhook only — never the end of the process or of another webhook's deliveries.
 */

/** Strings the URL pattern lets through and `new URL` refuses. */
const UNPARSEABLE = ['http://[::1/', 'http://a:99999/', 'http://%zz/', 'http://[fe80::1%25eth0]/'];

/** Rows as an older version could have stored them: each makes sending fail in its own way. */
const BROKEN_ROWS = [
  ...UNPARSEABLE.map((url) => ({ url, secret: undefined })),
  // not http(s): the HTTP client throws at once
  { url: 'ftp://127.0.0.1/hook', secret: undefined },
  // an empty secret: signing throws before anything is sent
  { url: 'http://127.0.0.1:9/hook', secret: '' },
];

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function storeBroken(db: Kysely<Database>): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, row] of BROKEN_ROWS.entries()) {
    const id = `broken${i}`;
    await insertWebhook(db, {
      id,
      url: row.url,
      events: ['*'],
      description: null,
      secret: row.secret ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    ids.push(id);
  }
  return ids;
}

describe.each(targets)('webhook URLs on $name', (target) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a URL the URL parser refuses is 400 at create and at edit, with and without WEBHOOK_ALLOW_PRIVATE', async () => {
    for (const allow of [false, true]) {
      const s = await startServer(target, { allowPrivateWebhookTargets: allow });
      cleanups.push(() => s.close());
      const ok = await s.call('POST', '/api/webhooks', {
        body: { url: 'https://203.0.113.9/a', events: ['*'] },
      });
      expect(ok.status).toBe(200);
      const path = `/api/webhooks/${ok.json.webhook.id}`;
      for (const url of UNPARSEABLE) {
        for (const r of [
          await s.call('POST', '/api/webhooks', { body: { url, events: ['*'] } }),
          await s.call('PATCH', path, { body: { url } }),
        ]) {
          expect(r.status, `${url} allow=${allow}`).toBe(400);
          expect(r.json.error).toBe('Validation error');
          expect(r.json.details[0], url).toMatch(/^url: /);
        }
      }
      expect((await s.call('GET', path)).json.webhook.url).toBe('https://203.0.113.9/a');
      expect((await s.call('GET', '/api/webhooks')).json.webhooks).toHaveLength(1);
    }
  });

  it('a private target behind a name is refused without naming the address it resolves to', async () => {
    const s = await startServer(target);
    cleanups.push(() => s.close());
    const r = await s.call('POST', '/api/webhooks', {
      body: { url: 'http://localhost:8080/hook', events: ['*'] },
    });
    expect(r.status).toBe(400);
    expect(r.json.details[0]).toMatch(/^url: .*localhost.* resolves to a loopback or private address/);
    expect(r.text).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('ping and redeliver of a stored broken webhook answer a failed attempt, not 500', async () => {
    const s = await startServer(target, { allowPrivateWebhookTargets: true });
    cleanups.push(() => s.close());
    const ids = await storeBroken(s.db.db);
    expect((await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } })).status).toBe(
      200,
    );
    for (const id of ids) {
      const ping = await s.call('POST', `/api/webhooks/${id}/ping`);
      expect(ping.status, id).toBe(200);
      expect(ping.json.ping).toMatchObject({ success: false, statusCode: null });
      expect(ping.json.ping.error, id).toEqual(expect.any(String));
      // an attempt of the queued delivery, as the dispatcher would have recorded it
      const { rows } = await sql<{ id: string }>`
        insert into webhook_attempts (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms)
        select webhook_id, id, change_id, 'project.created', null, 'earlier', false, 1
        from webhook_deliveries where webhook_id = ${id} returning id::text`.execute(s.db.db);
      const again = await s.call('POST', `/api/webhooks/${id}/deliveries/${rows[0]!.id}/redeliver`);
      expect(again.status, id).toBe(200);
      expect(again.json.delivery).toMatchObject({ success: false, statusCode: null });
    }
  });

  it('the dispatcher records broken webhooks as failed attempts, keeps delivering to others, and stays up', async () => {
    let databaseUrl: string;
    if (target.postgres) {
      const fresh = await freshPostgresDatabase();
      cleanups.push(fresh.drop);
      databaseUrl = fresh.url;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'webhook-urls-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      databaseUrl = `pglite:${dir}`;
    }
    // stored before the server starts, as rows of an older version would be
    const handle = await connect(databaseUrl, { poolSize: 2 });
    await migrateToLatest(handle.db);
    const broken = await storeBroken(handle.db);
    await handle.close();

    const hook = await receiver();
    cleanups.push(hook.close);
    const s: ServerProcess = await spawnServer({
      DATABASE_URL: databaseUrl,
      WEBHOOK_API_KEY: 'webhook-urls-key',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    cleanups.push(() => s.stop('SIGKILL'));
    const good = await s.call('POST', '/api/webhooks', { body: { url: hook.url, events: ['*'] } });
    expect(good.status).toBe(200);

    for (let round = 1; round <= 2; round++) {
      expect(
        (await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } })).status,
      ).toBe(200);
      await until(`delivery ${round} to the good webhook`, () => hook.received.length >= round);
    }
    for (const id of broken) {
      await until(`a failed attempt of ${id}`, async () => {
        const r = await s.call('GET', `/api/webhooks/${id}/deliveries`);
        return r.status === 200 && r.json.deliveries.length > 0;
      });
      const r = await s.call('GET', `/api/webhooks/${id}/deliveries`);
      for (const d of r.json.deliveries) expect(d).toMatchObject({ success: false, statusCode: null });
    }
    // retries of the broken ones go on failing; the process is up and answers
    await new Promise((r) => setTimeout(r, 1_000));
    expect(s.child.exitCode).toBeNull();
    expect((await s.call('GET', '/healthz')).status).toBe(200);
    expect(s.output()).not.toMatch(/unhandled|uncaught/i);
  }, 90_000);
});
