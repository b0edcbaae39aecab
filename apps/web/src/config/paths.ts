/**
 * Every address of the console in one place: the route table (app/routes.tsx) matches these, and
 * every link and navigation builds its href with the builders below.
 */
export const paths = {
  search: '/',
  tags: '/tags',
  /** Renaming and merging tags (a key with curate). */
  curateTags: '/tags/curate',
  queue: '/queue',
  changes: '/changes',
  duplicates: '/duplicates',
  deleted: '/deleted',
  synonyms: '/synonyms',
  webhooks: '/webhooks',
  keys: '/keys',
  signIn: '/sign-in',
  /** The API reference (served by the server, not a console page). */
  apiDocs: '/api/docs',
} as const;

/** Another address of the search page. */
export const SEARCH_ALIAS = '/search';

/** The slug of a project page's path (`/projects/:slug`), or null for any other path. */
export function matchProject(path: string): string | null {
  const project = /^\/projects\/([^/]+)$/.exec(path);
  return project ? decodeURIComponent(project[1]!) : null;
}

/** The slug of a project's edit page (`/projects/:slug/edit`), or null for any other path. */
export function matchProjectEdit(path: string): string | null {
  const edit = /^\/projects\/([^/]+)\/edit$/.exec(path);
  return edit ? decodeURIComponent(edit[1]!) : null;
}

/** A project's edit page. */
export function editHref(slug: string): string {
  return `/projects/${encodeURIComponent(slug)}/edit`;
}

/** A project page; `from` names the merged slug the visitor asked for, `tab` its History tab. */
export function projectHref(slug: string, options: { from?: string; tab?: 'history' } = {}): string {
  const path = `/projects/${encodeURIComponent(slug)}`;
  if (options.from !== undefined) return `${path}?from=${encodeURIComponent(options.from)}`;
  return options.tab === 'history' ? `${path}?tab=history` : path;
}

/** The search as the URL holds it (so it can be shared): `/?q=…&tag=…&status=…&sort=…`. */
export interface SearchParams {
  q?: string;
  tag?: string[];
  tagMode?: 'all' | 'any';
  status?: 'ACTIVE' | 'ARCHIVED';
  linkType?: ('WEBSITE' | 'CODEHOST' | 'MODELHUB' | 'PAPER')[];
  sort?: 'relevance' | 'updated' | 'created' | 'name';
  order?: 'asc' | 'desc';
  limit?: number;
}

export function searchHref(params: SearchParams): string {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  for (const tag of params.tag ?? []) search.append('tag', tag);
  if (params.tagMode === 'any') search.set('tagMode', 'any');
  if (params.status) search.set('status', params.status);
  for (const type of params.linkType ?? []) search.append('linkType', type);
  if (params.sort) search.set('sort', params.sort);
  if (params.order) search.set('order', params.order);
  const text = search.toString();
  return text ? `/?${text}` : '/';
}

const withQuery = (path: string, params: URLSearchParams) => {
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

/** The tag list filtered by `q`, sorted by `sort` (by count when not given). */
export function tagsHref({ q, sort }: { q?: string; sort?: string }): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (sort && sort !== 'count') params.set('sort', sort);
  return withQuery(paths.tags, params);
}

/** The queue with these parameters (`status`, `task`). */
export function queueHref(params: URLSearchParams): string {
  return withQuery(paths.queue, params);
}

/** The queue with one task's details open. */
export function taskHref(id: string): string {
  return `${paths.queue}?task=${encodeURIComponent(id)}`;
}
