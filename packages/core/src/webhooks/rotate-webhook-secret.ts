import { rotateWebhookSecret as rotate } from '@directory/db';
import { newWebhookSecret } from '../domain/webhook-delivery.ts';
import { isoOrNull } from '../schemas/common.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  RotateWebhookSecretInput,
  RotateWebhookSecretOutput,
  rotateWebhookSecretMeta,
} from './rotate-webhook-secret.types.ts';
import { toWebhook, visibleWebhook, webhookNotFound } from './webhook.ts';

/** POST /api/webhooks/{id}/rotate-secret (docs/changes-and-webhooks.md#rotating-a-webhooks-secret). */
export const rotateWebhookSecret = keyedProcedure
  .meta(rotateWebhookSecretMeta)
  .input(RotateWebhookSecretInput)
  .output(RotateWebhookSecretOutput)
  .mutation(async ({ ctx, input }) => {
    await visibleWebhook(ctx, input.id);
    const secret = newWebhookSecret();
    const rotated = await rotate(ctx.db, input.id, secret, input.graceSeconds);
    if (!rotated) throw webhookNotFound(input.id);
    const row = await visibleWebhook(ctx, input.id);
    return {
      success: true as const,
      webhook: toWebhook(row),
      secret,
      previousSecretValidUntil: isoOrNull(rotated.previous_secret_until),
    };
  });
