import { signedHeaders, signingSecrets } from '../domain/webhook-delivery.ts';
import { type AttemptOutcome, sendAttempt } from '../domain/webhook-exchange.ts';
import { AppError } from '../errors.ts';
import type { Context } from '../trpc.ts';

/**
 * One POST made now for a request (redeliver, ping): its outcome and exchange as an attempt records
 * them (docs/changes-and-webhooks.md#a-deliverys-request-and-response). A message that cannot be made
 * or sent, whatever the error, is a failed attempt (docs/changes-and-webhooks.md#webhooks--key).
 */
export async function sendNow(
  ctx: Context,
  webhook: { url: string; secrets: Parameters<typeof signingSecrets>[0] },
  message: { id: string; body: string },
): Promise<AttemptOutcome> {
  const send = ctx.sendWebhook;
  if (!send) throw new AppError('INTERNAL', ['This transport cannot send webhooks']);
  const { answered: _, ...outcome } = await sendAttempt(
    webhook.url,
    () => {
      const now = new Date();
      return {
        body: message.body,
        headers: signedHeaders(signingSecrets(webhook.secrets, now), message.id, message.body, now),
      };
    },
    send,
  );
  return outcome;
}
