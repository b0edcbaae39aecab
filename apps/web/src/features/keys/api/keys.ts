import type { RouterInputs, RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// Named keys (docs/keys-and-limits.md#named-keys-and-scopes). Each call needs keys:admin.

export type KeyRecord = RouterOutputs['keys']['list']['data'][number];
export type NewKey = RouterOutputs['keys']['create']['data'];
export type CreateKeyInput = RouterInputs['keys']['create'];

const keyed = { key: true } as const;

export const listKeys = (cursor: string | null, signal?: AbortSignal) =>
  request((client) => client.keys.list({ limit: 50, ...(cursor !== null && { cursor }) }), {
    ...keyed,
    signal,
  });

export const createKey = (input: CreateKeyInput) => request((client) => client.keys.create(input), keyed);

export const revokeKey = (id: string) => request((client) => client.keys.revoke({ id }), keyed);

export const rotateKey = (id: string, graceSeconds: number) =>
  request((client) => client.keys.rotate({ id, graceSeconds }), keyed);
