import { describe, expect, it } from 'vitest';
import { connect } from '../src/connect.ts';
import { recordPing, sql } from '../src/index.ts';
import { migrateToLatest } from '../src/migrate.ts';
import { claimDeliveries } from '../src/webhooks/deliveries.ts';
import { recordAttempts } from '../src/webhooks/record-attempts.ts';

// recordAttempts records a claimed batch in one statement with the outcome recordAttempt gives
// the same attempts one after the other.
describe('recordAttempts', () => {
  async function withBatch(
    stored: number,
    outcomes: boolean[],
    maxFailures: number,
  ): Promise<{
    disabled: string[];
    webhook: { enabled: boolean; consecutive_failures: number };
    statuses: string[];
  }> {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      await sql`insert into webhooks (id, url, events, secret, consecutive_failures)
        values ('w1', 'https://example.org/hook', '{*}', 's', ${stored})`.execute(handle.db);
      for (const _ of outcomes)
        await sql`insert into changes (type, project_id, slug) values ('project.created', 'p', 's')`.execute(
          handle.db,
        );
      const claimed = await claimDeliveries(handle.db, outcomes.length, 60_000);
      claimed.sort((a, b) => Number(a.deliveryId) - Number(b.deliveryId));
      const disabled = await recordAttempts(
        handle.db,
        claimed.map((delivery, i) => ({
          delivery,
          success: outcomes[i]!,
          statusCode: outcomes[i] ? 200 : 500,
          error: outcomes[i] ? null : 'HTTP 500',
          durationMs: 3,
          retryInMs: 1000,
        })),
        { giveUpAfterMs: 86_400_000, maxFailures },
      );
      const webhook = (
        await sql<{ enabled: boolean; consecutive_failures: number }>`
        select enabled, consecutive_failures from webhooks`.execute(handle.db)
      ).rows[0]!;
      const statuses = (
        await sql<{ status: string }>`select status from webhook_deliveries order by id`.execute(handle.db)
      ).rows.map((r) => r.status);
      const attempts = (
        await sql<{ n: number }>`select count(*)::int as n from webhook_attempts`.execute(handle.db)
      ).rows[0]!.n;
      expect(attempts).toBe(outcomes.length);
      return { disabled, webhook, statuses };
    } finally {
      await handle.close();
    }
  }

  it('resets the run of failures at a success and keeps the failures after the last one', async () => {
    const r = await withBatch(3, [false, true, false, false], 10);
    expect(r.webhook).toEqual({ enabled: true, consecutive_failures: 2 });
    expect(r.statuses).toEqual(['PENDING', 'DELIVERED', 'PENDING', 'PENDING']);
    expect(r.disabled).toEqual([]);
  });

  it('disables a webhook whose run reached the limit before a later success, as one by one would', async () => {
    // 3 stored + 2 failures = 5 = the limit: disabled then, whatever follows
    const r = await withBatch(3, [false, false, true], 5);
    expect(r.webhook).toEqual({ enabled: false, consecutive_failures: 0 });
    expect(r.disabled).toEqual(['w1']);
  });

  it('disables at a run that reaches the limit between two successes', async () => {
    const r = await withBatch(0, [true, false, false, false, true], 3);
    expect(r.webhook.enabled).toBe(false);
    expect(r.disabled).toEqual(['w1']);
  });

  it("keeps each attempt's request and response, in a batch where some have none", async () => {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      await sql`insert into webhooks (id, url, events, secret) values ('w1', 'https://example.org/hook', '{*}', 's')`.execute(
        handle.db,
      );
      for (const _ of [1, 2])
        await sql`insert into changes (type, project_id, slug) values ('project.created', 'p', 's')`.execute(
          handle.db,
        );
      const claimed = await claimDeliveries(handle.db, 2, 60_000);
      claimed.sort((a, b) => Number(a.deliveryId) - Number(b.deliveryId));
      const exchange = {
        request: { url: 'https://example.org/hook', headers: { 'webhook-id': 'chg_1' }, body: '{"a":"中"}' },
        response: { headers: { 'content-type': 'text/plain' }, body: 'ok', bodyTruncated: true },
      };
      await recordAttempts(
        handle.db,
        claimed.map((delivery, i) => ({
          delivery,
          success: true,
          statusCode: 200,
          error: null,
          durationMs: 3,
          retryInMs: 1000,
          ...(i === 0 && { exchange }),
        })),
        { giveUpAfterMs: 86_400_000, maxFailures: 5 },
      );
      const { rows } = await sql<Record<string, unknown>>`
        select request_url, request_headers, request_body, response_headers, response_body, response_body_truncated
        from webhook_attempts order by delivery_id`.execute(handle.db);
      expect(rows).toEqual([
        {
          request_url: 'https://example.org/hook',
          request_headers: { 'webhook-id': 'chg_1' },
          request_body: '{"a":"中"}',
          response_headers: { 'content-type': 'text/plain' },
          response_body: 'ok',
          response_body_truncated: true,
        },
        {
          request_url: null,
          request_headers: null,
          request_body: null,
          response_headers: null,
          response_body: null,
          response_body_truncated: false,
        },
      ]);
    } finally {
      await handle.close();
    }
  });

  it('adds the failures of a batch without a success to the stored run', async () => {
    const r = await withBatch(1, [false, false], 10);
    expect(r.webhook).toEqual({ enabled: true, consecutive_failures: 3 });
  });
});

describe('recordPing', () => {
  it('records a ping of a webhook, and nothing for one deleted while its ping was sent', async () => {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      await sql`insert into webhooks (id, url, events, secret)
        values ('w1', 'https://example.org/hook', '{*}', 's')`.execute(handle.db);
      const ping = (webhookId: string) =>
        recordPing(handle.db, {
          webhookId,
          messageId: `ping_${webhookId}`,
          statusCode: 200,
          error: null,
          success: true,
          durationMs: 4,
          exchange: {
            request: {
              url: 'https://example.org/hook',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            },
            response: { headers: {}, body: 'ok', bodyTruncated: false },
          },
        });
      expect(await ping('w1')).toMatchObject({ type: 'ping', event: 'ping', statusCode: 200 });
      expect(await ping('gone')).toBeUndefined();
      const rows = await sql<{ webhook_id: string }>`select webhook_id from webhook_attempts`.execute(
        handle.db,
      );
      expect(rows.rows.map((r) => r.webhook_id)).toEqual(['w1']);
    } finally {
      await handle.close();
    }
  });
});
