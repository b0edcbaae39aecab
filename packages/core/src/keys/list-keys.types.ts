import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { queryInt, queryObject } from '../schemas/query.ts';
import { ApiKeyRecord, sampleKey } from './key.ts';

export const listKeysMeta: Meta = {
  scope: 'keys:admin',
  openapi: {
    method: 'GET',
    path: '/api/keys',
    protect: true,
    tags: ['keys'],
    summary: 'List the named keys',
    description:
      'Every named key, newest first, revoked ones included, with when each was last used; never a key ' +
      'itself. Paged: `nextCursor` (and the `Link` header) leads to the next page.',
  },
  nextLink: { param: 'cursor', field: 'nextCursor' },
  examples: { request: { limit: 20 }, response: { success: true, data: [sampleKey], nextCursor: null } },
};

export const ListKeysInput = queryObject({
  limit: queryInt({ min: 1, max: 100, fallback: 20 }),
  cursor: text({ min: 1, max: 4000 }).optional().meta({ description: 'A `nextCursor` from the page before' }),
});

export const ListKeysOutput = z.object({
  success: z.literal(true),
  data: z.array(ApiKeyRecord),
  nextCursor: z.string().nullable(),
});
