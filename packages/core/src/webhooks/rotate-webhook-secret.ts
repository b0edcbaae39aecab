import { rotateWebhookSecret as rotate } from '@directory/db';
import { newWebhookSecret } from '../domain/webhook-delivery.ts';
import { isoOrNull } from '../schemas/common.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  RotateWebhookSecretInput,
  RotateWebhookSecretOutput,
  rotateWebhookSecretMeta,
} from './rotate-webhook-secret.types.ts';
import { toWebhook, webhookNotFound } from './webhook.ts';

/** POST /api/webhooks/{id}/rotate-secret (docs/changes-and-webhooks.md#rotating-a-webhooks-secret). */
export const rotateWebhookSecret = keyedProcedure
  .meta(rotateWebhookSecretMeta)
  .input(RotateWebhookSecretInput)
  .output(RotateWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const secret = newWebhookSecret();
    const row = await rotate(ctx.db, input.id, secret, input.graceSeconds);
    if (!row) throw webhookNotFound(input.id);
    return {
      success: true as const,
      webhook: toWebhook(row),
      secret,
      previousSecretValidUntil: isoOrNull(row.previous_secret_until),
    };
  });
