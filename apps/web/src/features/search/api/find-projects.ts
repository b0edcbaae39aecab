import type { RouterOutputs } from '@directory/core';
import type { SearchParams } from '../../../config/paths.ts';
import { request } from '../../../lib/api-client.ts';

export type SearchReply = RouterOutputs['projects']['find'];
export type SearchItem = SearchReply['projects'][number];

/** A page of results; `facets` asks for the facet counts too (they cost the server more). */
export const findProjects = (
  params: SearchParams,
  cursor: string | null,
  signal?: AbortSignal,
  facets = false,
) =>
  request(
    (client) =>
      client.projects.find({
        ...params,
        ...(cursor && { cursor }),
        ...(facets && { facets: ['tags', 'status', 'linkTypes'] }),
      }),
    { signal },
  );
