import type { RouterInputs, RouterOutputs } from '@directory/core';

/**
 * The console talks to the REST API of its own origin. Request and response types come from the
 * router (`RouterInputs`/`RouterOutputs`: the REST body of a procedure is its output), so a
 * change of a procedure's schema breaks this build. Only `import type`: no server code is bundled.
 */
export type Project = RouterOutputs['projects']['get']['data'];
type Task = RouterOutputs['tasks']['get']['task'];
type TaskStatus = Task['status'];
type TaskList = RouterOutputs['tasks']['list'];
export type TaskDuplicates = RouterOutputs['tasks']['checkDuplicates'];
type CreateTasksInput = RouterInputs['tasks']['create'];
type CreateTasksReply = RouterOutputs['tasks']['create'];
type LinkType = Project['links'][number]['type'];

export const LINK_TYPES: readonly LinkType[] = ['WEBSITE', 'CODEHOST', 'MODELHUB', 'PAPER'];
export const TASK_STATUSES: readonly TaskStatus[] = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'];

// --- EXTENSIONS.md parts A–C: the procedures of search (projects.find, tags.find), the queue
// (tasks.stats, lease fields on tasks, cursor paging of tasks.list) and the change feed (changes.list).

export type SearchReply = RouterOutputs['projects']['find'];
export type SearchItem = SearchReply['projects'][number];
export type TagsReply = RouterOutputs['tags']['find'];
export type QueueTask = Task;
export type QueueTaskList = TaskList;
type StatsReply = RouterOutputs['tasks']['stats'];
type ChangesReply = RouterOutputs['changes']['list'];
export type Change = ChangesReply['changes'][number];

// --- EXTENSIONS.md E: duplicates and merges.

type DuplicatesReply = RouterOutputs['projects']['duplicates'];
export type DuplicateGroup = DuplicatesReply['groups'][number];
type MergeReply = RouterOutputs['projects']['merge'];

// --- EXTENSIONS.md F: history, locks, deleted projects.

type RevisionsReply = RouterOutputs['projects']['revisions'];
export type RevisionSummary = RevisionsReply['revisions'][number];
export type Revision = RouterOutputs['projects']['revision']['data'];
type LockReply = RouterOutputs['projects']['lock'];
export type LockField = NonNullable<Project['lock']>['fields'][number];
export const LOCK_FIELDS: readonly LockField[] = [
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'content',
  'contentEn',
  'status',
  'tags',
  'links',
];
type DeletedReply = RouterOutputs['projects']['deleted'];
type SynonymsReply = RouterOutputs['search']['synonyms'];
export type DeletedProject = DeletedReply['projects'][number];

// --- transport ---------------------------------------------------------------------------------

/** A reply in the error envelope (`{success: false, error, details}`), or a failed connection. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string[],
  ) {
    super(details[0] ?? error);
  }
}

const KEY_STORAGE = 'directory.apiKey';
const keyListeners = new Set<() => void>();

/** The key lives in this tab's sessionStorage only: never in a URL, the bundle or a log. */
export const apiKey = {
  get(): string | null {
    try {
      return sessionStorage.getItem(KEY_STORAGE);
    } catch {
      return null;
    }
  },
  set(value: string | null) {
    try {
      if (value) sessionStorage.setItem(KEY_STORAGE, value);
      else sessionStorage.removeItem(KEY_STORAGE);
    } catch {
      // storage refused (private mode): the key is simply not kept
    }
    for (const listener of keyListeners) listener();
  },
  subscribe(listener: () => void) {
    keyListeners.add(listener);
    return () => keyListeners.delete(listener);
  },
};

type Query = Record<string, string | number | boolean | readonly string[] | null | undefined>;

function queryString(params: Query): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) search.append(name, v);
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

interface CallOptions {
  query?: Query;
  body?: unknown;
  key?: boolean;
  signal?: AbortSignal | undefined;
}

async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key) {
    const key = apiKey.get();
    if (!key) throw new ApiError(401, 'Unauthorized', ['No API key entered']);
    headers['x-api-key'] = key;
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path + queryString(options.query ?? {}), {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
      credentials: 'omit',
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'Network error', ['The server could not be reached']);
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const body = (json ?? {}) as { error?: string; details?: string[] };
    // A refused key is forgotten, so that the page asks again.
    if (res.status === 401 && options.key) apiKey.set(null);
    throw new ApiError(res.status, body.error ?? res.statusText, body.details ?? []);
  }
  return json as T;
}

// --- the calls ---------------------------------------------------------------------------------

export interface SearchParams {
  q?: string;
  tag?: string[];
  tagMode?: 'all' | 'any';
  status?: string;
  linkType?: string[];
  sort?: string;
  order?: string;
  limit?: number;
}

export const api = {
  /** A page of results; `facets` asks for the facet counts too (they cost the server more). */
  search: (params: SearchParams, cursor: string | null, signal?: AbortSignal, facets = false) =>
    call<SearchReply>('GET', '/api/projects', {
      query: { ...params, cursor, facets: facets ? 'tags,status,linkTypes' : undefined },
      signal,
    }),
  project: (slug: string, signal?: AbortSignal) =>
    call<RouterOutputs['projects']['get']>('GET', `/api/projects/${encodeURIComponent(slug)}`, { signal }),
  tags: (
    params: { q?: string; sort?: string; limit?: number },
    cursor: string | null,
    signal?: AbortSignal,
  ) => call<TagsReply>('GET', '/api/tags', { query: { ...params, cursor }, signal }),
  stats: (signal?: AbortSignal) => call<StatsReply>('GET', '/api/discovery/stats', { key: true, signal }),
  tasks: (
    status: TaskStatus | undefined,
    limit: number,
    cursor: string | null,
    offset: number | undefined,
    signal?: AbortSignal,
  ) =>
    call<QueueTaskList>('GET', '/api/discovery/tasks', {
      key: true,
      query: { status, limit, cursor, offset: offset || undefined },
      signal,
    }),
  task: (id: string, signal?: AbortSignal) =>
    call<{ success: true; task: QueueTask }>('GET', `/api/discovery/tasks/${encodeURIComponent(id)}`, {
      key: true,
      signal,
    }),
  retry: (id: string) =>
    call<RouterOutputs['tasks']['updateStatus']>('PATCH', `/api/discovery/tasks/${encodeURIComponent(id)}`, {
      key: true,
      body: { status: 'PENDING' } satisfies Omit<RouterInputs['tasks']['updateStatus'], 'id'>,
    }),
  checkTaskDuplicates: (urls: string[]) =>
    call<TaskDuplicates>('POST', '/api/discovery/check-duplicates', {
      key: true,
      body: { urls } satisfies RouterInputs['tasks']['checkDuplicates'],
    }),
  createTasks: (input: CreateTasksInput) =>
    call<CreateTasksReply>('POST', '/api/discovery/tasks', { key: true, body: input }),
  duplicates: (cursor: string | null, signal?: AbortSignal) =>
    call<DuplicatesReply>('GET', '/api/projects/duplicates', {
      key: true,
      query: { cursor, limit: 20 },
      signal,
    }),
  merge: (slug: string, into: string) =>
    call<MergeReply>('POST', `/api/projects/${encodeURIComponent(slug)}/merge`, {
      key: true,
      body: { into } satisfies Omit<RouterInputs['projects']['merge'], 'slug'>,
    }),
  revisions: (slug: string, cursor: string | null, signal?: AbortSignal) =>
    call<RevisionsReply>('GET', `/api/projects/${encodeURIComponent(slug)}/revisions`, {
      query: { cursor, limit: 50 },
      signal,
    }),
  revision: (slug: string, n: number, signal?: AbortSignal) =>
    call<RouterOutputs['projects']['revision']>(
      'GET',
      `/api/projects/${encodeURIComponent(slug)}/revisions/${n}`,
      {
        signal,
      },
    ),
  revert: (slug: string, revision: number) =>
    call<RouterOutputs['projects']['revert']>('POST', `/api/projects/${encodeURIComponent(slug)}/revert`, {
      key: true,
      body: { revision } satisfies Omit<RouterInputs['projects']['revert'], 'slug'>,
    }),
  lock: (slug: string, fields: LockField[], reason: string) =>
    call<LockReply>('PUT', `/api/projects/${encodeURIComponent(slug)}/lock`, {
      key: true,
      body: { fields, ...(reason.trim() && { reason: reason.trim() }) } satisfies Omit<
        RouterInputs['projects']['lock'],
        'slug'
      >,
    }),
  unlock: (slug: string) =>
    call<LockReply>('DELETE', `/api/projects/${encodeURIComponent(slug)}/lock`, { key: true }),
  deleted: (cursor: string | null, signal?: AbortSignal) =>
    call<DeletedReply>('GET', '/api/projects/deleted', { key: true, query: { cursor, limit: 20 }, signal }),
  restore: (id: string) =>
    call<RouterOutputs['projects']['restore']>(
      'POST',
      `/api/projects/deleted/${encodeURIComponent(id)}/restore`,
      {
        key: true,
      },
    ),
  synonyms: (signal?: AbortSignal) => call<SynonymsReply>('GET', '/api/search/synonyms', { signal }),
  replaceSynonyms: (sets: string[][]) =>
    call<SynonymsReply>('PUT', '/api/search/synonyms', { key: true, body: { sets } }),
  changes: (after: string | null, wait: number, limit: number, signal?: AbortSignal) =>
    call<ChangesReply>('GET', '/api/changes', { key: true, query: { after, wait, limit }, signal }),
};
