import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { timestamp } from '../schemas/common.ts';
import { queryObject } from '../schemas/query.ts';
import { RateLimit, ScopeName, sampleKey } from './key.ts';

export const getOwnKeyMeta: Meta = {
  scope: 'any-key',
  openapi: {
    method: 'GET',
    path: '/api/keys/self',
    protect: true,
    tags: ['keys'],
    summary: 'The key of this request',
    description:
      'Who the calling key is and what it may do: its record for a named key; for the bootstrap key ' +
      '(WEBHOOK_API_KEY) `id` null, the name `bootstrap` and every scope. Any valid key may ask.',
  },
  examples: { request: {}, response: { success: true, data: sampleKey } },
};

export const GetOwnKeyInput = queryObject({});

export const OwnKey = z
  .object({
    id: z.string().nullable().meta({ description: 'null: the bootstrap key' }),
    name: z.string(),
    start: z.string().nullable(),
    scopes: z.array(ScopeName),
    createdAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable(),
    rateLimit: RateLimit.nullable(),
  })
  .meta({ id: 'OwnKey' });

export const GetOwnKeyOutput = z.object({ success: z.literal(true), data: OwnKey });
