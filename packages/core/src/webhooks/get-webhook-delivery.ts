import { findAttemptDetail } from '@directory/db';
import { AppError } from '../errors.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  GetWebhookDeliveryInput,
  GetWebhookDeliveryOutput,
  getWebhookDeliveryMeta,
} from './get-webhook-delivery.types.ts';
import { toDelivery, visibleWebhook } from './webhook.ts';

/**
 * GET /api/webhooks/{id}/deliveries/{deliveryId}
 * (docs/changes-and-webhooks.md#a-deliverys-request-and-response).
 */
export const getWebhookDelivery = keyedProcedure
  .meta(getWebhookDeliveryMeta)
  .input(GetWebhookDeliveryInput)
  .output(GetWebhookDeliveryOutput)
  .query(async ({ ctx, input }) => {
    await visibleWebhook(ctx, input.id);
    const notFound = () =>
      new AppError('NOT_FOUND', [`Delivery "${input.deliveryId}" of webhook "${input.id}" not found`]);
    // an attempt's id is a bigint: anything else names no attempt
    if (!/^[1-9]\d{0,17}$/.test(input.deliveryId)) throw notFound();
    const a = await findAttemptDetail(ctx.db, input.id, input.deliveryId);
    if (!a) throw notFound();
    return {
      success: true as const,
      delivery: {
        ...toDelivery(input.id, a),
        request: a.request && { method: 'POST' as const, ...a.request },
        response: { statusCode: a.statusCode, ...a.response, durationMs: a.durationMs, error: a.error },
      },
    };
  });
