import { randomBytes } from 'node:crypto';
import type { ChangeRecord } from '@directory/db';
import { Webhook } from 'standardwebhooks';
import { type Change, toChange } from '../changes/feed.ts';

/*
 * The webhook delivery policy (docs/changes-and-webhooks.md#webhooks--key), one place for what a delivery
 * is and how it is retried: the secret, the message and its id, the signature, what counts as delivered,
 * the retry delay, when a delivery is given up and when a webhook is disabled. The dispatcher
 * (apps/server/src/webhooks/dispatcher.ts) sends and records; the targets a webhook may have
 * are domain/webhook-targets.ts.
 */

/** A new webhook's secret (Standard Webhooks: "whsec_" and base64 of 24–64 random bytes). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** `webhook-id` of a change's message: the same for every attempt and every webhook. */
export const messageId = (changeId: string) => `chg_${changeId}`;

/**
 * A test message (`POST /api/webhooks/{id}/ping`,
 * docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage): its body
 * and its own `webhook-id`.
 */
export function pingMessage(webhookId: string): { id: string; body: string } {
  return {
    id: `ping_${randomBytes(12).toString('base64url')}`,
    body: JSON.stringify({ type: 'ping', webhookId }),
  };
}

/** The JSON body POSTed for a change (Standard Webhooks' recommended {type, timestamp, data}). */
export function webhookPayload(change: ChangeRecord): { type: string; timestamp: string; data: Change } {
  const data = toChange(change);
  return { type: change.type, timestamp: data.at, data };
}

/**
 * The secrets that sign a webhook's messages at `now`: its secret, and the one a rotation replaced while
 * its grace period lasts (docs/changes-and-webhooks.md#rotating-a-webhooks-secret).
 */
export function signingSecrets(
  w: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
  now: Date,
): string[] {
  return w.previousSecret && w.previousSecretUntil && w.previousSecretUntil.getTime() > now.getTime()
    ? [w.secret, w.previousSecret]
    : [w.secret];
}

/**
 * The headers of one attempt: Standard Webhooks' id, timestamp and signature. Signed anew at
 * each attempt: the timestamp is the attempt's, the id the change's. Several secrets (a rotation's grace
 * period) give several signatures, space-separated, as Standard Webhooks allows.
 */
export function signedHeaders(
  secrets: string | string[],
  id: string,
  body: string,
  now: Date,
): Record<string, string> {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    'content-type': 'application/json',
    'user-agent': 'project-directory-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': all.map((s) => new Webhook(s).sign(id, now, body)).join(' '),
  };
}

/** An answer delivers a message when its status is 2xx; otherwise the attempt failed with this error. */
export const attemptError = (statusCode: number): string | null =>
  statusCode >= 200 && statusCode <= 299 ? null : `HTTP ${statusCode}`;

const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/** Delay before retry number `attempt` (1-based): base·2^(attempt-1), capped at an hour, ±25% jitter. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  const delay = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(attempt - 1, 30));
  return delay * (0.75 + Math.random() * 0.5);
}

/** A failing delivery is retried this long after it was queued, then given up (FAILED). */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The defaults of the settings (apps/server/src/config.ts reads the environment):
 * - maxFailures, WEBHOOK_MAX_FAILURES: consecutive failed attempts (a success resets the run)
 *   after which a webhook is disabled (recordAttempt in packages/db/src/webhooks/deliveries.ts);
 * - timeoutMs, WEBHOOK_TIMEOUT_MS: one attempt, connecting to the last byte of the answer;
 * - retryBaseMs, WEBHOOK_RETRY_BASE_MS: the first retry's delay (retryDelayMs).
 */
export const WEBHOOK_DEFAULTS = { maxFailures: 20, timeoutMs: 10_000, retryBaseMs: 5_000 } as const;
