import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// Webhooks, their deliveries, redeliver, ping (docs/changes-and-webhooks.md#webhooks--key,
// docs/curation.md#webhook-deliveries-newest-first-redeliver-ping-enabledisable--webhooksmanage).

export type Webhook = RouterOutputs['webhooks']['get']['webhook'];

const keyed = { key: true } as const;

export const listWebhooks = (signal?: AbortSignal) =>
  request((client) => client.webhooks.list(), { ...keyed, signal });

export const createWebhook = (url: string, events: string[], description: string) =>
  request(
    (client) =>
      client.webhooks.create({
        url,
        events: events as never,
        ...(description.trim() && { description: description.trim() }),
      }),
    keyed,
  );

export const setEnabled = (id: string, enabled: boolean) =>
  request((client) => client.webhooks.update({ id, enabled }), keyed);

export const deleteWebhook = (id: string) => request((client) => client.webhooks.delete({ id }), keyed);

export const listDeliveries = (id: string, signal?: AbortSignal) =>
  request((client) => client.webhooks.deliveries({ id, limit: 20 }), { ...keyed, signal });

export const redeliver = (id: string, deliveryId: string) =>
  request((client) => client.webhooks.redeliver({ id, deliveryId }), keyed);

export const ping = (id: string) => request((client) => client.webhooks.ping({ id }), keyed);
