import {
  type AttemptRecord,
  type Database,
  findWebhook,
  type Kysely,
  type WebhookRow,
  type WebhookView,
  type WebhookViewer,
} from '@directory/db';
import { z } from 'zod';
import type { Principal } from '../auth.ts';
import { CHANGE_TYPES, type ChangeType } from '../changes/feed.ts';
import { grants } from '../domain/scopes.ts';
import { messageId } from '../domain/webhook-delivery.ts';
import { AppError } from '../errors.ts';
import { iso, isoOrNull, timestamp } from '../schemas/common.ts';

export const WebhookEvent = z.enum([...CHANGE_TYPES, '*']);

/** A webhook as the API shows it: never its secret. */
export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEvent),
  description: z.string().nullable(),
  createdAt: timestamp,
  enabled: z.boolean().meta({ description: 'False once it failed WEBHOOK_MAX_FAILURES times in a row' }),
  consecutiveFailures: z.number().int().min(0),
  disabledAt: timestamp.nullable(),
  owner: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .meta({
      description:
        'The key that owns it, as GET /api/keys shows it (the newest of its rotations); null: admin keys only ' +
        '(made with the bootstrap key, or before webhooks had owners)',
    }),
});
export type Webhook = z.infer<typeof Webhook>;

export function toWebhook(row: WebhookView): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as Webhook['events'],
    description: row.description,
    createdAt: iso(row.created_at),
    enabled: row.enabled,
    consecutiveFailures: row.consecutive_failures,
    disabledAt: isoOrNull(row.disabled_at),
    owner: row.owner_key,
  };
}

/**
 * Webhooks have owners (docs/keys-and-limits.md#webhooks-have-owners): a webhook belongs to the lineage
 * of the key that made it (its rotated successors own it too); the bootstrap key's, and those made before
 * owners existed, belong to admins (owner null). An admin key — the bootstrap key or one with
 * `keys:admin` — sees and changes every webhook; any other key only its own.
 */
export function webhookViewer(principal: Principal | undefined): WebhookViewer {
  if (!principal) throw new AppError('INTERNAL', ['A webhook procedure runs without a key']);
  if (principal.id === null || grants(principal.scopes, 'keys:admin')) return { all: true };
  return { owner: principal.lineage ?? principal.id };
}

/** The webhook `id` when the request's key sees it; else 404, as if absent (another key's webhook too). */
export async function visibleWebhook(
  ctx: { db: Kysely<Database>; principal?: Principal | undefined },
  id: string,
  db: Kysely<Database> = ctx.db,
): Promise<WebhookView> {
  const row = await findWebhook(db, id, webhookViewer(ctx.principal));
  if (!row) throw webhookNotFound(id);
  return row;
}

/** The owner a webhook made by `principal` gets: its lineage, or null for the bootstrap key. */
export const ownerOf = (principal: Principal | undefined): string | null =>
  principal?.id == null ? null : (principal.lineage ?? principal.id);

/** An attempt as the deliveries list shows it (docs/changes-and-webhooks.md#webhooks--key). */
export function toDelivery(webhookId: string, a: AttemptRecord) {
  return {
    id: a.id,
    webhookId,
    type: a.type,
    messageId: a.messageId ?? messageId(a.changeId ?? ''),
    event: a.event as z.infer<typeof ChangeType> | 'ping',
    statusCode: a.statusCode,
    success: a.success,
    error: a.error,
    durationMs: a.durationMs,
    at: iso(a.at),
  };
}

export const webhookNotFound = (id: string) =>
  new AppError('NOT_FOUND', [`Webhook with id "${id}" not found`]);

export const sampleWebhook: Webhook = {
  id: 'cmi9x4f7c0002qz8h6y3k2d1s',
  url: 'https://search.example.org/hooks/directory',
  events: ['project.created', 'project.updated', 'project.deleted'],
  description: '搜索索引 / search index',
  createdAt: '2026-11-23T08:00:00.000Z',
  enabled: true,
  consecutiveFailures: 0,
  disabledAt: null,
  owner: { id: 'k3v9q2m8x1c4b7n5z6', name: 'acme-integration' },
};

/** What signingSecrets needs of a webhook's row. */
export const secretsOf = (row: WebhookRow) => ({
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousSecretUntil: row.previous_secret_until,
});
