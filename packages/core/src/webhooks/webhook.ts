import type { AttemptRecord, WebhookRow } from '@directory/db';
import { z } from 'zod';
import { CHANGE_TYPES, type ChangeType } from '../changes/feed.ts';
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
});
export type Webhook = z.infer<typeof Webhook>;

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as Webhook['events'],
    description: row.description,
    createdAt: iso(row.created_at),
    enabled: row.enabled,
    consecutiveFailures: row.consecutive_failures,
    disabledAt: isoOrNull(row.disabled_at),
  };
}

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
};

/** What signingSecrets needs of a webhook's row. */
export const secretsOf = (row: WebhookRow) => ({
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousSecretUntil: row.previous_secret_until,
});
