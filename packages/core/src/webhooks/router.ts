import { router } from '../trpc.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { getWebhook } from './get-webhook.ts';
import { getWebhookDelivery } from './get-webhook-delivery.ts';
import { listWebhookDeliveries } from './list-webhook-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { pingWebhook } from './ping-webhook.ts';
import { redeliverWebhook } from './redeliver-webhook.ts';
import { rotateWebhookSecret } from './rotate-webhook-secret.ts';
import { updateWebhook } from './update-webhook.ts';

export const webhooksRouter = router({
  create: createWebhook,
  list: listWebhooks,
  get: getWebhook,
  delete: deleteWebhook,
  update: updateWebhook,
  deliveries: listWebhookDeliveries,
  delivery: getWebhookDelivery,
  redeliver: redeliverWebhook,
  ping: pingWebhook,
  rotateSecret: rotateWebhookSecret,
});
