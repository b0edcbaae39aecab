import type { RouterOutputs } from '@directory/core';
import {
  type Export,
  type ExportOptions,
  type ExportRecord,
  exportProjects,
  exportText,
  type ProjectExport,
} from './helpers/export-projects.ts';
import { type FollowOptions, follow } from './helpers/follow.ts';
import { type ListAllOptions, listAll } from './helpers/list-all.ts';
import { type RunWorkerOptions, runWorker, type WorkerTotals } from './helpers/run-worker.ts';
import { type TakeOptions, take } from './helpers/take.ts';
import { type UpsertAllOptions, type UpsertTotals, upsertAll } from './helpers/upsert-all.ts';
import { ROUTES, type Route } from './routes.ts';
import { createTransport, type Send, type TransportOptions } from './transport.ts';
import type {
  Change,
  Endpoints,
  FindProjectsInput,
  FindTagsInput,
  LeasedTask,
  ListChangesInput,
  ProjectInput,
  ProjectListItem,
  Task,
} from './types.ts';

/** `{ baseUrl, apiKey?, actor?, fetch?, retries?, timeoutMs? }` */
export type DirectoryClientOptions = TransportOptions;

export interface DirectoryClient {
  projects: Endpoints['projects'] & {
    /** Upserts any number of projects, `batchSize` (default 100) per request; resolves to the totals. */
    upsertAll(
      items: Iterable<ProjectInput> | AsyncIterable<ProjectInput>,
      options?: UpsertAllOptions,
    ): Promise<UpsertTotals>;
    /** One page of GET /api/projects (filters, sorts, facets; pass `nextCursor` back as `cursor`). */
    list(input?: FindProjectsInput): ReturnType<Endpoints['projects']['find']>;
    /**
     * Every matching project, page after page (following `nextCursor`):
     * `for await (const p of client.projects.search('通义', { tag: ['llm'] }))`.
     */
    search(
      q: string | undefined,
      input?: Omit<FindProjectsInput, 'q' | 'cursor'>,
    ): AsyncGenerator<ProjectListItem, void, undefined>;
  };
  tags: Endpoints['tags'] & {
    /** One page of GET /api/tags. */
    list(input?: FindTagsInput): ReturnType<Endpoints['tags']['find']>;
  };
  tasks: Endpoints['tasks'] & {
    /** Pages of tasks in queue order: `for await (const page of client.tasks.listAll())`. */
    listAll(options?: ListAllOptions): AsyncGenerator<Task[], void, undefined>;
    /** Claims the oldest claimable task with a lease (see `claim`); null when none is claimable. */
    take(options?: TakeOptions): Promise<LeasedTask | null>;
  };
  changes: Endpoints['changes'] & {
    /**
     * Every change after `after`, as it happens (long-polls, resumes from its cursor):
     * `for await (const change of client.changes.follow({ after, signal }))`.
     */
    follow(options?: FollowOptions): AsyncGenerator<Change, void, undefined>;
  };
  webhooks: Endpoints['webhooks'];
  /**
   * Named keys (docs/keys-and-limits.md#named-keys-and-scopes): `create` and `rotate` answer the key once;
   * `list`, `revoke` need keys:admin; `self()` tells any key what it may do.
   */
  keys: Endpoints['keys'];
  /**
   * Search synonyms: `synonyms()` reads the sets, `replaceSynonyms({ sets })` replaces them all;
   * curated results: `pins()` reads them, `replacePins({ pins })` replaces them all.
   */
  search: Endpoints['search'];
  /**
   * GET /api/export (a key with `export`): every project (or the list's filters of them) as of one
   * snapshot, in id order, resumed by itself after a cut: `const exp = client.exportProjects();
   * for await (const p of exp) …; exp.header.cursor` is where to follow the feed from
   * (docs/changes-and-webhooks.md#export-then-follow).
   */
  exportProjects(options?: ExportOptions): ProjectExport;
  /** The same export as its text, record by record (NDJSON lines, or CSV with `format: 'csv'`): what the CLI writes. */
  exportText(format: 'ndjson' | 'csv', options?: ExportOptions): Export<ExportRecord>;
  /**
   * Restore from an export (docs/operating.md#restore-from-an-export), keys:admin: `status()` says
   * whether and how far this directory was restored, `batch(...)` writes one batch of the export.
   */
  restore: Endpoints['restore'];
  /**
   * Runs a worker until `signal` aborts: claims in batches, heartbeats, completes with the
   * lease token, releases on errors (with a backoff) and on stop. Resolves to its totals.
   */
  runWorker(options: RunWorkerOptions): Promise<WorkerTotals>;
}

/**
 * One method per entry of a ROUTES namespace, each sending its input along that route. The
 * cast is sound because ROUTES has exactly the router's procedures (its `satisfies` clause).
 */
function endpointsOf<N extends keyof typeof ROUTES>(send: Send, namespace: N): Endpoints[N] {
  const routes: Record<string, Route> = ROUTES[namespace];
  return Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [
      name,
      (input: Record<string, unknown>) => send(route, input ?? {}),
    ]),
  ) as unknown as Endpoints[N];
}

/**
 * A client with one method per endpoint (inputs and replies typed from the service's schemas)
 * plus the helpers upsertAll, listAll, take and runWorker. Failures throw DirectoryError. Reads, upserts
 * and task creates are retried after 429, 5xx, timeouts and network errors; deletes, status
 * changes and completes only after 429 or a refused connection (see ROUTES for why).
 */
export function createDirectoryClient(options: DirectoryClientOptions): DirectoryClient {
  const send = createTransport(options);
  const projects = endpointsOf(send, 'projects');
  const tasks = endpointsOf(send, 'tasks');
  const listChanges = (input: ListChangesInput, signal?: AbortSignal) =>
    send(ROUTES.changes.list, { ...input }, signal) as Promise<RouterOutputs['changes']['list']>;
  const tags = endpointsOf(send, 'tags');
  const exportTarget = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    fetch: options.fetch,
  };
  return {
    projects: {
      ...projects,
      upsertAll: (items, upsertOptions) => upsertAll(projects.upsert, items, upsertOptions),
      list: (input = {}) => projects.find(input),
      async *search(q, input = {}) {
        let cursor: string | undefined;
        do {
          const page = await projects.find({
            ...input,
            ...(q !== undefined && { q }),
            ...(cursor && { cursor }),
          });
          yield* page.projects;
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      },
    },
    tags: { ...tags, list: (input = {}) => tags.find(input) },
    search: endpointsOf(send, 'search'),
    tasks: {
      ...tasks,
      listAll: (listOptions) => listAll(tasks.list, listOptions),
      take: (takeOptions) => take(tasks, takeOptions),
    },
    changes: {
      list: (input) => listChanges(input ?? {}),
      follow: (followOptions) => follow(listChanges, followOptions),
    },
    webhooks: endpointsOf(send, 'webhooks'),
    keys: endpointsOf(send, 'keys'),
    restore: endpointsOf(send, 'restore'),
    runWorker: (workerOptions) => runWorker(tasks, workerOptions),
    exportProjects: (exportOptions) => exportProjects(exportTarget, exportOptions),
    exportText: (format, exportOptions) => exportText(exportTarget, format, exportOptions),
  };
}
