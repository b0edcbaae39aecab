import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text, timestamp } from '../schemas/common.ts';
import { sampleWebhook, Webhook } from './webhook.ts';

export const rotateWebhookSecretMeta: Meta = {
  scope: 'webhooks:manage',
  openapi: {
    method: 'POST',
    path: '/api/webhooks/{id}/rotate-secret',
    protect: true,
    tags: ['webhooks'],
    summary: 'Give a webhook a new signing secret, the old one still signing for a grace period',
    description:
      'Answers the new `secret` — shown once, never again. For `graceSeconds` (0–604800, 7 days) every ' +
      'delivery carries two signatures in `webhook-signature`, space-separated as Standard Webhooks ' +
      'allows: one with the new secret and one with the old, so that receivers verifying with either ' +
      'accept it while they move to the new one. With 0 the old secret stops signing at once. A rotation ' +
      'during a grace period ends that earlier one. 404 for an unknown webhook.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleWebhook.id, graceSeconds: 86400 },
    response: {
      success: true,
      webhook: sampleWebhook,
      secret: 'whsec_q3VnX0dY8mV1aQp2b1Jrc0ZxT2h5UjZ0',
      previousSecretValidUntil: '2026-11-24T08:00:00.000Z',
    },
  },
};

export const RotateWebhookSecretInput = z.object({
  id: text({ max: 100 }),
  graceSeconds: z.number().int().min(0).max(604_800),
});

export const RotateWebhookSecretOutput = z.object({
  success: z.literal(true),
  webhook: Webhook,
  secret: z.string().meta({ description: 'The new signing secret (whsec_…); shown only in this answer' }),
  previousSecretValidUntil: timestamp
    .nullable()
    .meta({ description: 'Until when the old secret signs too; null when graceSeconds was 0' }),
});
