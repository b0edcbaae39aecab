import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// WEBHOOK DELIVERY DETAILS (docs/changes-and-webhooks.md#a-deliverys-request-and-response):
// - Every attempt keeps what was sent (request_url, request_headers — never a secret, only its
//   signatures —, request_body) and what came back (response_headers: at most 50 and 8 KB;
//   response_body: at most the answer's first 4096 bytes, response_body_truncated when it had more).
//   Attempts recorded before this migration have them null. Pruned with the attempts
//   (CHANGES_RETENTION_DAYS).
// - Pings are attempts too (type 'ping'): no delivery, no change; message_id is the ping's own
//   `webhook-id` (a change's is chg_<change_id>, so it is not stored).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhook_attempts
      alter column delivery_id drop not null,
      alter column change_id drop not null,
      add column type text not null default 'change',
      add column message_id text,
      add column request_url text,
      add column request_headers jsonb,
      add column request_body text,
      add column response_headers jsonb,
      add column response_body text,
      add column response_body_truncated boolean not null default false;
    alter table webhook_attempts add constraint webhook_attempts_type_check
      check (type in ('change', 'ping'));
    alter table webhook_attempts add constraint webhook_attempts_change_check
      check (type = 'ping' or (delivery_id is not null and change_id is not null));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from webhook_attempts where type = 'ping';
    alter table webhook_attempts drop constraint webhook_attempts_change_check;
    alter table webhook_attempts drop constraint webhook_attempts_type_check;
    alter table webhook_attempts
      drop column type,
      drop column message_id,
      drop column request_url,
      drop column request_headers,
      drop column request_body,
      drop column response_headers,
      drop column response_body,
      drop column response_body_truncated,
      alter column delivery_id set not null,
      alter column change_id set not null;
  `.execute(db);
}
