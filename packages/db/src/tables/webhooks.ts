import type { Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.ts';

export interface WebhooksTable {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  /** The secret a rotation replaced, signing too until previous_secret_until (migration 2026_11_28_001130_webhook_secret_rotation). */
  previous_secret: string | null;
  previous_secret_until: NullableTimestamp;
  enabled: Generated<boolean>;
  consecutive_failures: Generated<number>;
  disabled_at: NullableTimestamp;
  created_at: Timestamp;
  /** The lineage of the key that made it; null: admins only (migration 2026_11_28_001210_webhook_owners). */
  owner: string | null;
}

export type WebhookDeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** Queued by a trigger on `changes`, one row per change and subscribed webhook. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  change_id: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}

/** Every attempt to deliver, kept for GET /api/webhooks/{id}/deliveries until retention. */
export interface WebhookAttemptsTable {
  id: Generated<string>;
  webhook_id: string;
  /** Null for a ping (migration 2026_11_28_001140_webhook_delivery_details), as change_id. */
  delivery_id: string | null;
  change_id: string | null;
  event: string;
  status_code: number | null;
  error: string | null;
  success: boolean;
  duration_ms: number;
  at: Timestamp;
  type: Generated<'change' | 'ping'>;
  /** A ping's `webhook-id`; null for a change's attempt (chg_<change_id>). */
  message_id: string | null;
  /** What was sent and what came back; null for attempts recorded before migration 001140. */
  request_url: string | null;
  request_headers: Record<string, string> | null;
  request_body: string | null;
  response_headers: Record<string, string> | null;
  /** At most the answer's first 4096 bytes (response_body_truncated: it had more). */
  response_body: string | null;
  response_body_truncated: Generated<boolean>;
}

export type WebhookRow = Selectable<WebhooksTable>;
