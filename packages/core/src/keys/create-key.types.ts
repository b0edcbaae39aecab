import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { timestamp } from '../schemas/common.ts';
import { KeyName, NewApiKey, RateLimit, SAMPLE_KEY_VALUE, ScopeName, sampleKey } from './key.ts';

export const createKeyMeta: Meta = {
  scope: 'keys:admin',
  created: true,
  openapi: {
    method: 'POST',
    path: '/api/keys',
    protect: true,
    tags: ['keys'],
    summary: 'Create a named key',
    description:
      'A new key (`dir_` and 32 random bytes in base58) with a name, the scopes it may use, an optional ' +
      'expiry and an optional rate limit of its own. The key is in this answer only: the service keeps ' +
      'its SHA-256, never the key.',
  },
  examples: {
    request: { name: sampleKey.name, scopes: sampleKey.scopes, rateLimit: sampleKey.rateLimit },
    response: {
      success: true,
      data: {
        id: sampleKey.id,
        name: sampleKey.name,
        key: SAMPLE_KEY_VALUE,
        start: sampleKey.start,
        scopes: sampleKey.scopes,
        createdAt: sampleKey.createdAt,
        expiresAt: null,
        rateLimit: sampleKey.rateLimit,
      },
    },
  },
};

export const CreateKeyInput = z.object({
  name: KeyName,
  scopes: z.array(ScopeName).max(20),
  expiresAt: timestamp.optional().meta({ description: 'When the key stops working (in the future)' }),
  rateLimit: RateLimit.optional(),
});

export const CreateKeyOutput = z.object({ success: z.literal(true), data: NewApiKey });
