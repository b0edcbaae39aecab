import { Webhook } from 'standardwebhooks';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The JSON body the service POSTs to a webhook for each change. */
export interface WebhookMessage<C = unknown> {
  type: string;
  /** When the change happened (ISO 8601). */
  timestamp: string;
  /** The change, as GET /api/changes shows it. */
  data: C;
}

/**
 * Checks a webhook request per the Standard Webhooks specification (the `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` headers, HMAC-SHA256 with the webhook's `whsec_…`
 * secret, a timestamp within 5 minutes) and returns the parsed message. `body` must be the raw
 * request body, exactly as received. Throws when the signature does not verify.
 */
export function verifyWebhook<C = unknown>(
  secret: string,
  headers: WebhookHeaders,
  body: string | Buffer,
): WebhookMessage<C> {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return new Webhook(secret).verify(
    typeof body === 'string' ? body : body.toString('utf8'),
    flat,
  ) as WebhookMessage<C>;
}
