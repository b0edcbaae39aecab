import type { SearchParams } from '../../../config/paths.ts';
import { LINK_TYPES } from '../../../lib/api-client.ts';

const PAGE_SIZE = 20;

type LinkType = (typeof LINK_TYPES)[number];

/** The search the URL holds (config/paths.ts builds such URLs), with the page size. */
export function readParams(search: URLSearchParams): SearchParams {
  const params: SearchParams = { limit: PAGE_SIZE };
  const q = search.get('q')?.trim();
  if (q) params.q = q.slice(0, 200);
  const tags = search.getAll('tag');
  if (tags.length) params.tag = tags;
  if (search.get('tagMode') === 'any') params.tagMode = 'any';
  const status = search.get('status');
  if (status === 'ACTIVE' || status === 'ARCHIVED') params.status = status;
  const linkTypes = search
    .getAll('linkType')
    .filter((t): t is LinkType => (LINK_TYPES as readonly string[]).includes(t));
  if (linkTypes.length) params.linkType = linkTypes;
  const sort = search.get('sort');
  if (sort === 'updated' || sort === 'created' || sort === 'name' || (sort === 'relevance' && q))
    params.sort = sort;
  const order = search.get('order');
  if (order === 'asc' || order === 'desc') params.order = order;
  return params;
}

export function toggle<T extends string>(list: T[] | undefined, value: T): T[] {
  const current = list ?? [];
  return current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
}
