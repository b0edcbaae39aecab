import { type Kysely, sql } from 'kysely';
import type { Database, WebhookRow } from '../tables.ts';

type Db = Kysely<Database>;

/**
 * Whose webhooks a caller sees (docs/keys-and-limits.md#webhooks-have-owners): every one (an admin
 * key), or those of one owner (the lineage of a key).
 */
export type WebhookViewer = { all: true } | { owner: string };

/** A webhook with the key that owns it as the keys API shows it (the newest of its lineage); null: admins. */
export type WebhookView = WebhookRow & { owner_key: { id: string; name: string } | null };

export async function insertWebhook(
  db: Db,
  row: {
    id: string;
    url: string;
    events: string[];
    description: string | null;
    secret: string;
    owner?: string | null;
  },
): Promise<WebhookRow> {
  return db
    .insertInto('webhooks')
    .values({ ...row, owner: row.owner ?? null, events: sql`${row.events}::text[]` as unknown as string[] })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const visibleTo = (viewer: WebhookViewer) => ('owner' in viewer ? sql`w.owner = ${viewer.owner}` : sql`true`);

async function selectWebhooks(db: Db, where: ReturnType<typeof sql>): Promise<WebhookView[]> {
  const { rows } = await sql<WebhookView>`
    select w.*, case when k.id is null then null else json_build_object('id', k.id, 'name', k.name) end as owner_key
    from webhooks w
    left join lateral (
      select id, name from api_keys where coalesce(lineage, id) = w.owner order by created_at desc, id desc limit 1
    ) k on true
    where ${where}
    order by w.created_at, w.id
  `.execute(db);
  return rows;
}

/** The webhooks `viewer` sees, oldest first. */
export async function findWebhooks(db: Db, viewer: WebhookViewer): Promise<WebhookView[]> {
  return selectWebhooks(db, visibleTo(viewer));
}

/** The webhook with this id, when `viewer` sees it (another's is as absent). */
export async function findWebhook(
  db: Db,
  id: string,
  viewer: WebhookViewer,
): Promise<WebhookView | undefined> {
  return (await selectWebhooks(db, sql`w.id = ${id} and ${visibleTo(viewer)}`))[0];
}

/** Deletes a webhook with its queued deliveries and recorded attempts; false when there was none. */
export async function deleteWebhookById(db: Db, id: string): Promise<boolean> {
  const { rows } = await sql<{ deleted: number }>`
    with w as (delete from webhooks where id = ${id} returning id),
    d as (delete from webhook_deliveries where webhook_id in (select id from w)),
    a as (delete from webhook_attempts where webhook_id in (select id from w))
    select count(*)::int as deleted from w
  `.execute(db);
  return (rows[0]?.deleted ?? 0) > 0;
}

/**
 * Enables or disables a webhook. Enabling starts a new run (no failures); deliveries queued
 * while it was disabled are sent from then on. Undefined when there is no such webhook.
 */
export async function setWebhookEnabled(
  db: Db,
  id: string,
  enabled: boolean,
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set(
      enabled
        ? { enabled: true, consecutive_failures: 0, disabled_at: null }
        : { enabled: false, disabled_at: sql`coalesce(disabled_at, now())` as unknown as Date },
    )
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Changes a webhook's url and/or events (each left as it is when undefined); undefined when there is none. */
export async function updateWebhookTarget(
  db: Db,
  id: string,
  change: { url?: string; events?: string[] },
): Promise<WebhookRow | undefined> {
  return db
    .updateTable('webhooks')
    .set({
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.events === undefined
        ? {}
        : { events: sql`${change.events}::text[]` as unknown as string[] }),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Gives a webhook a new secret (docs/changes-and-webhooks.md#rotating-a-webhooks-secret). With a grace
 * period the secret it replaces keeps signing too until then (a secret still in an earlier grace is
 * dropped); with none, only the new one signs from now on. Undefined when there is no such webhook.
 */
export async function rotateWebhookSecret(
  db: Db,
  id: string,
  secret: string,
  graceSeconds: number,
): Promise<WebhookRow | undefined> {
  const grace = graceSeconds > 0;
  return db
    .updateTable('webhooks')
    .set({
      secret,
      previous_secret: grace ? sql<string>`secret` : null,
      previous_secret_until: grace
        ? (sql`now() + ${graceSeconds}::int * interval '1 second'` as unknown as Date)
        : null,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
