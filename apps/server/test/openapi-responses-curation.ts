import { sql } from '@directory/db';
import { it } from 'vitest';
import { project } from './helpers.ts';
import { hugeHeaders, type ResponseChecks, tooLarge } from './openapi-conformance.ts';

/**
 * Real responses match the OpenAPI document: the curation operations — editing with If-Match,
 * dismissed duplicates, a webhook's update, secret rotation, ping, deliveries and redelivery
 * (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see).
 * Registered by openapi.test.ts in its "real responses match it" block, on its server.
 */
export function curationResponses({ s, conforms, call }: ResponseChecks): void {
  it('the curation operations: edit, dismissals, redeliver, ping', async () => {
    const [a, b] = [project(), project()];
    await s.call('POST', '/api/webhook/projects', { body: { projects: [a, b] } });
    const slug = (p: { nameEn: string }) => p.nameEn.toLowerCase().replace(/\s+/g, '-');
    const at = { slug: slug(a) };
    const none = { slug: 'no-such-project' };
    const merged = project();
    await s.call('POST', '/api/webhook/projects', { body: { projects: [merged] } });
    await s.call('POST', `/api/projects/${slug(merged)}/merge`, { body: { into: slug(b) } });
    const alias = { slug: slug(merged) };

    const edit = 'PATCH /api/projects/{slug}';
    const etag = (await s.call('GET', `/api/projects/${at.slug}`)).headers.get('etag')!;
    conforms(edit, await call(edit, at, { body: { status: 'ARCHIVED' }, key: false }), 401);
    conforms(edit, await call(edit, at, { ...tooLarge, key: false }), 413);
    conforms(edit, await call(edit, at, { body: { description: 'short' } }), 400);
    conforms(edit, await call(edit, none, { body: {} }), 404);
    conforms(edit, await call(edit, alias, { body: {} }), 409);
    conforms(edit, await call(edit, at, { body: { links: b.links } }), 409);
    conforms(
      edit,
      await call(edit, at, { body: { status: 'ARCHIVED' }, headers: { 'if-match': etag } }),
      200,
    );
    conforms(edit, await call(edit, at, { body: { status: 'ACTIVE' }, headers: { 'if-match': etag } }), 412);
    conforms(edit, await call(edit, at, { body: {}, ...hugeHeaders }), 431);

    for (const op of [
      'POST /api/projects/duplicates/dismiss',
      'DELETE /api/projects/duplicates/dismiss',
    ] as const) {
      const slugs = [slug(a), slug(b)];
      conforms(op, await call(op, {}, { body: { slugs }, key: false }), 401);
      conforms(op, await call(op, {}, { ...tooLarge, key: false }), 413);
      conforms(op, await call(op, {}, { body: { slugs: [slug(a)] } }), 400);
      conforms(op, await call(op, {}, { body: { slugs: [slug(a), 'no-such-project'] } }), 404);
      conforms(op, await call(op, {}, { body: { slugs: [slug(a), alias.slug] } }), 409);
      conforms(op, await call(op, {}, { body: { slugs } }), 200);
      conforms(op, await call(op, {}, { body: { slugs }, ...hugeHeaders }), 431);
    }
    conforms(
      'GET /api/projects/duplicates',
      await s.call('GET', '/api/projects/duplicates?dismissed=true&limit=1'),
      200,
    );

    const created = await s.call('POST', '/api/webhooks', {
      body: { url: 'https://hooks.example.org/directory', events: ['*'] },
    });
    const id = { id: created.json.webhook.id as string };
    const update = 'PATCH /api/webhooks/{id}';
    conforms(update, await call(update, id, { body: { enabled: false }, key: false }), 401);
    conforms(update, await call(update, id, { ...tooLarge, key: false }), 413);
    conforms(update, await call(update, id, { body: { enabled: 'no' } }), 400);
    conforms(update, await call(update, { id: 'no-such-webhook' }, { body: { enabled: false } }), 404);
    conforms(update, await call(update, id, { body: { enabled: false } }), 200);
    conforms(update, await call(update, id, { body: { enabled: true } }), 200);
    conforms(update, await call(update, id, { body: { enabled: false }, ...hugeHeaders }), 431);
    conforms(update, await call(update, id, { body: { url: 'http://127.0.0.1/hook' } }), 400);
    conforms(update, await call(update, id, { body: { events: ['project.created'] } }), 200);

    const rotate = 'POST /api/webhooks/{id}/rotate-secret';
    conforms(rotate, await call(rotate, id, { body: { graceSeconds: 0 }, key: false }), 401);
    conforms(rotate, await call(rotate, id, { ...tooLarge, key: false }), 413);
    conforms(rotate, await call(rotate, id, { body: { graceSeconds: 604_801 } }), 400);
    conforms(rotate, await call(rotate, { id: 'no-such-webhook' }, { body: { graceSeconds: 0 } }), 404);
    conforms(rotate, await call(rotate, id, { body: { graceSeconds: 60 } }), 200);
    conforms(rotate, await call(rotate, id, { body: { graceSeconds: 0 }, ...hugeHeaders }), 431);

    const ping = 'POST /api/webhooks/{id}/ping';
    conforms(ping, await call(ping, id, { key: false }), 401);
    conforms(ping, await call(ping, id, { ...tooLarge, key: false }), 413);
    conforms(ping, await call(ping, id, { raw: '[]' }), 400);
    conforms(ping, await call(ping, { id: 'no-such-webhook' }), 404);
    // the target does not resolve here: answered with the failure, not an error
    const pinged = await call(ping, id);
    conforms(ping, pinged, 200);
    conforms(ping, await call(ping, id, hugeHeaders), 431);

    // a delivery's detail; a ping is one, and is not redelivered
    const detail = 'GET /api/webhooks/{id}/deliveries/{deliveryId}';
    const pingAt = { ...id, deliveryId: pinged.json.ping.id as string };
    conforms(detail, await call(detail, pingAt, { key: false }), 401);
    conforms(detail, await call(detail, pingAt), 200);
    conforms(detail, await call(detail, { ...id, deliveryId: 'abc' }), 404);
    conforms(detail, await call(detail, { id: 'x'.repeat(101), deliveryId: '1' }), 400);
    conforms(detail, await call(detail, { id: 'no-such-webhook', deliveryId: pingAt.deliveryId }), 404);
    conforms(detail, await call(detail, pingAt, hugeHeaders), 431);

    // a change queued for the webhook, and an attempt at it
    await s.call('POST', '/api/webhook/projects', { body: { projects: [project()] } });
    const attempts = await sql<{ id: string; change_id: string }>`
        insert into webhook_attempts (webhook_id, delivery_id, change_id, event, status_code, error, success, duration_ms)
        select webhook_id, id, change_id, 'project.created', 500, 'HTTP 500', false, 1
        from webhook_deliveries where webhook_id = ${id.id}
        returning id::text, change_id::text
      `.execute(s.db.db);
    const attempt = attempts.rows[0]!;
    const redeliver = 'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver';
    const at2 = { ...id, deliveryId: attempt.id };
    conforms(redeliver, await call(redeliver, at2, { key: false }), 401);
    conforms(redeliver, await call(redeliver, at2, { ...tooLarge, key: false }), 413);
    conforms(redeliver, await call(redeliver, { ...id, deliveryId: '3000000000000000000000' }), 400);
    conforms(redeliver, await call(redeliver, { ...id, deliveryId: '999999999' }), 404);
    conforms(redeliver, await call(redeliver, at2), 200);
    conforms(redeliver, await call(redeliver, pingAt), 409);
    conforms(detail, await call(detail, at2), 200);
    conforms(redeliver, await call(redeliver, at2, hugeHeaders), 431);
    await sql`delete from changes where id = ${attempt.change_id}::bigint`.execute(s.db.db);
    conforms(redeliver, await call(redeliver, at2), 410);
  });
}
