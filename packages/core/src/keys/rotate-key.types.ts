import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { NewApiKey, SAMPLE_KEY_VALUE, sampleKey } from './key.ts';

export const MAX_GRACE_SECONDS = 604_800;

export const rotateKeyMeta: Meta = {
  scope: 'keys:admin',
  openapi: {
    method: 'POST',
    path: '/api/keys/{id}/rotate',
    protect: true,
    tags: ['keys'],
    summary: 'Rotate a named key',
    description:
      'A new key with the same name, scopes, expiry and rate limit (shown in this answer only). The old ' +
      'key keeps working for `graceSeconds` (0–604800, default 0), or until its expiry if that comes ' +
      'first, then is refused. A revoked or expired key cannot be rotated (409).',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { id: sampleKey.id, graceSeconds: 3600 },
    response: {
      success: true,
      data: {
        id: 'k8w2e5r1t9y3u7i4o6',
        name: sampleKey.name,
        key: SAMPLE_KEY_VALUE,
        start: sampleKey.start,
        scopes: sampleKey.scopes,
        createdAt: '2026-11-26T12:00:00.000Z',
        expiresAt: null,
        rateLimit: sampleKey.rateLimit,
      },
    },
  },
};

export const RotateKeyInput = z.object({
  id: text({ max: 100 }),
  graceSeconds: z
    .int()
    .min(0)
    .max(MAX_GRACE_SECONDS)
    .optional()
    .meta({ description: 'How long the old key keeps working (default 0: it is refused at once)' }),
});

export const RotateKeyOutput = z.object({ success: z.literal(true), data: NewApiKey });
