import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// Webhooks, their deliveries (each with its request and response), redeliver, ping, edit, rotate
// (docs/changes-and-webhooks.md#webhooks--key, docs/changes-and-webhooks.md#a-deliverys-request-and-response,
// docs/changes-and-webhooks.md#rotating-a-webhooks-secret, docs/curation.md#webhooks-in-the-console).

export type Webhook = RouterOutputs['webhooks']['get']['webhook'];
export type DeliveryDetail = RouterOutputs['webhooks']['delivery']['delivery'];

const keyed = { key: true } as const;

/** The events a webhook may subscribe to (`*`: every change). */
export const EVENTS = [
  '*',
  'project.created',
  'project.updated',
  'project.deleted',
  'project.merged',
  'task.created',
  'task.updated',
  'tag.updated',
] as const;

/** The grace periods the console offers when rotating a secret (the API takes 0–604800 s). */
export const GRACE_SECONDS = [0, 3_600, 86_400, 604_800] as const;

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

/** A new target URL and events (checked as at creation); the secret stays. */
export const editWebhook = (id: string, url: string, events: string[]) =>
  request((client) => client.webhooks.update({ id, url, events: events as never }), keyed);

export const rotateSecret = (id: string, graceSeconds: number) =>
  request((client) => client.webhooks.rotateSecret({ id, graceSeconds }), keyed);

export const deleteWebhook = (id: string) => request((client) => client.webhooks.delete({ id }), keyed);

export const listDeliveries = (id: string, signal?: AbortSignal) =>
  request((client) => client.webhooks.deliveries({ id, limit: 20 }), { ...keyed, signal });

export const getDelivery = (id: string, deliveryId: string, signal?: AbortSignal) =>
  request((client) => client.webhooks.delivery({ id, deliveryId }), { ...keyed, signal });

export const redeliver = (id: string, deliveryId: string) =>
  request((client) => client.webhooks.redeliver({ id, deliveryId }), keyed);

export const ping = (id: string) => request((client) => client.webhooks.ping({ id }), keyed);
