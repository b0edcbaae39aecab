import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { ApiKeyRecord, sampleKey } from './key.ts';

export const revokeKeyMeta: Meta = {
  scope: 'keys:admin',
  openapi: {
    method: 'DELETE',
    path: '/api/keys/{id}',
    protect: true,
    tags: ['keys'],
    summary: 'Revoke a named key',
    description:
      'The key is refused from now on, by every server process within a second. The record stays ' +
      '(with `revokedAt`) so that the revisions it made still name it. Revoking a revoked key changes nothing.',
  },
  errors: ['NOT_FOUND'],
  examples: {
    request: { id: sampleKey.id },
    response: { success: true, data: { ...sampleKey, revokedAt: '2026-11-26T11:00:00.000Z' } },
  },
};

export const RevokeKeyInput = z.object({ id: text({ max: 100 }) });

export const RevokeKeyOutput = z.object({ success: z.literal(true), data: ApiKeyRecord });
