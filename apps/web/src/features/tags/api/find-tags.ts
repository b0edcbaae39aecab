import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

export type TagsReply = RouterOutputs['tags']['find'];

export const findTags = (
  params: { q?: string | undefined; sort?: 'count' | 'name'; limit?: number },
  cursor: string | null,
  signal?: AbortSignal,
) =>
  request(
    (client) =>
      client.tags.find({
        ...(params.q && { q: params.q }),
        ...(params.sort && { sort: params.sort }),
        ...(params.limit !== undefined && { limit: params.limit }),
        ...(cursor && { cursor }),
      }),
    { signal },
  );
