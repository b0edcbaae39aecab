import { findWebhooks } from '@directory/db';
import { keyedProcedure } from '../trpc.ts';
import { ListWebhooksInput, ListWebhooksOutput, listWebhooksMeta } from './list-webhooks.types.ts';
import { toWebhook, webhookViewer } from './webhook.ts';

export const listWebhooks = keyedProcedure
  .meta(listWebhooksMeta)
  .input(ListWebhooksInput)
  .output(ListWebhooksOutput)
  .query(async ({ ctx, input }) => {
    const rows = await findWebhooks(ctx.db, webhookViewer(ctx.principal));
    const wanted =
      input.enabled === undefined ? rows : rows.filter((r) => String(r.enabled) === input.enabled);
    return { success: true as const, webhooks: wanted.map(toWebhook) };
  });
