import { type Kysely, sql } from 'kysely';

// Migrations never import application code: the schema here is frozen as of this migration.
//
// WEBHOOKS HAVE OWNERS (docs/keys-and-limits.md#webhooks-have-owners)
// - `owner` is the lineage of the key that created the webhook (api_keys.lineage, or its id when it was
//   made by no rotation), so that the key's rotated successors own it too. Null: the bootstrap key made
//   it, or it was made before owners existed: only admin keys see it.
// - webhook_owner_reads(owner): whether the owner may read the change feed now — null (admins), or a
//   key of that lineage that is neither revoked nor expired and holds `changes:read`. A change is queued
//   for a webhook only then (the trigger below), and a queued delivery is sent only then (the claim).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhooks add column owner text;
    create index webhooks_owner_idx on webhooks (owner);
    create index api_keys_lineage_idx on api_keys ((coalesce(lineage, id)));
    create function webhook_owner_reads(owner text) returns boolean language sql stable as $$
      select owner is null or exists (
        select 1 from api_keys k
        where coalesce(k.lineage, k.id) = owner and 'changes:read' = any (k.scopes)
          and (k.revoked_at is null or k.revoked_at > now())
          and (k.expires_at is null or k.expires_at > now())
      )
    $$;
    create or replace function changes_queue_deliveries() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from new_rows) then return null; end if;
      insert into webhook_deliveries (webhook_id, change_id)
        select w.id, c.id from new_rows c
        join webhooks w on w.enabled and (c.type = any (w.events) or '*' = any (w.events))
        where webhook_owner_reads(w.owner);
      perform pg_notify('directory_changes', '');
      return null;
    end $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function changes_queue_deliveries() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from new_rows) then return null; end if;
      insert into webhook_deliveries (webhook_id, change_id)
        select w.id, c.id from new_rows c
        join webhooks w on w.enabled and (c.type = any (w.events) or '*' = any (w.events));
      perform pg_notify('directory_changes', '');
      return null;
    end $$;
    drop function webhook_owner_reads;
    drop index api_keys_lineage_idx;
    alter table webhooks drop column owner;
  `.execute(db);
}
