import type { ExportHeader, RouterInputs, RouterOutputs } from '@directory/core';

/** The first line of an NDJSON export (GET /api/export): its snapshot's time, feed cursor and count. */
export type { ExportHeader };

/** A project as endpoint 2 answers it. */
export type Project = RouterOutputs['projects']['get']['data'];

/**
 * A project line of an NDJSON export: the project as endpoint 2 answers it, and the slugs that
 * lead to it (of projects merged into it), oldest first.
 */
export type ExportedProject = Project & { aliases: string[] };

/**
 * The payload of one project to create or update
 * (docs/api.md#1-post-apiwebhookprojects-create-or-update-projects).
 */
export type ProjectInput = RouterInputs['projects']['upsert']['projects'][number];

/** A discovery task as the service returns it. */
export type Task = RouterOutputs['tasks']['get']['task'];

export type TaskStatus = Task['status'];

/** A task as its claimer gets it: with the `leaseToken` that heartbeat, release and complete take. */
export type LeasedTask = RouterOutputs['tasks']['claim']['tasks'][number];

/**
 * The server takes any JSON as `explorationData` (it validates it as a ProjectInput after
 * checking the task's state); the SDK asks for a ProjectInput so mistakes show at compile time.
 */
export type CompleteTaskInput = Omit<RouterInputs['tasks']['complete'], 'explorationData'> & {
  explorationData: ProjectInput;
};

/**
 * The schema reads `limit` and `offset` from query-string text, so its input type is
 * `unknown`; the SDK sends numbers.
 */
export type ListTasksInput = Omit<RouterInputs['tasks']['list'], 'limit' | 'offset'> & {
  limit?: number;
  offset?: number;
};

/** A change of the feed (GET /api/changes). */
export type Change = RouterOutputs['changes']['list']['changes'][number];

/** Query-string numbers (see ListTasksInput). */
export type ListChangesInput = { after?: string; limit?: number; wait?: number };

export type Webhook = RouterOutputs['webhooks']['get']['webhook'];

/** A delivery attempt or ping, as GET /api/webhooks/{id}/deliveries lists it. */
export type WebhookDelivery = RouterOutputs['webhooks']['deliveries']['deliveries'][number];

/** One attempt with the request it sent and the response it got (GET /api/webhooks/{id}/deliveries/{deliveryId}). */
export type WebhookDeliveryDetail = RouterOutputs['webhooks']['delivery']['delivery'];

/**
 * A curated result as PUT /api/search/pins takes it (docs/search.md#curated-results-pins): for
 * `query`, the `first` projects (slugs) shown first in order, the `hide` ones never shown.
 */
export type PinInput = { query: string; first: string[]; hide?: string[] };

/** A curated result as GET /api/search/pins answers it (its query normalised). */
export type Pin = RouterOutputs['search']['pins']['pins'][number];

/** A project's stars and downloads as stored (null when never sent; docs/search.md#signals-and-standing). */
export type Signals = ProjectListItem['signals'];

/** A project as GET /api/projects lists it (with `match` when searching). */
export type ProjectListItem = RouterOutputs['projects']['find']['projects'][number];

/** A tag with its project count, as GET /api/tags lists it. */
export type TagListItem = RouterOutputs['tags']['find']['tags'][number];

/**
 * GET /api/projects: `tag` and `linkType` are lists (sent as repeated parameters), `limit`
 * a number (the schema reads query-string text, so its input type is `unknown`).
 */
export type FindProjectsInput = {
  q?: string;
  status?: 'ACTIVE' | 'ARCHIVED' | 'ALL';
  tag?: string[];
  tagMode?: 'all' | 'any';
  linkType?: ('WEBSITE' | 'CODEHOST' | 'MODELHUB' | 'PAPER')[];
  source?: string;
  updatedAfter?: string;
  /** `standing`: by standing alone (docs/search.md#signals-and-standing), ties newest first. */
  sort?: 'relevance' | 'updated' | 'created' | 'name' | 'standing';
  order?: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
  facets?: ('tags' | 'status' | 'linkTypes')[];
  include?: 'content';
  /** Typo tolerance (default true). */
  typos?: boolean;
  /** Answer once the server reflects this X-Directory-Position (the SDK sends its last write's). */
  minPosition?: string;
};

/** GET /api/projects/{slug}/related: `limit` 1–20 (default 6). */
export type RelatedProjectsInput = { slug: string; limit?: number; minPosition?: string };

/** A related project: a list item with `related` (its score and what it shares). */
export type RelatedProjectItem = RouterOutputs['projects']['related']['projects'][number];

/** GET /api/tags. */
export type FindTagsInput = {
  q?: string;
  sort?: 'count' | 'name';
  limit?: number;
  cursor?: string;
  minPosition?: string;
};

/** The input of every SDK method that maps to one endpoint. */
export type Inputs = {
  projects: Omit<RouterInputs['projects'], 'find' | 'edit' | 'related'> & {
    find: FindProjectsInput;
    related: RelatedProjectsInput;
    /** `ifMatch`: the `etag` of `get` (sent as If-Match: 412 when the project changed since). */
    edit: RouterInputs['projects']['edit'] & { ifMatch?: string };
  };
  tags: Omit<RouterInputs['tags'], 'find'> & { find: FindTagsInput };
  search: {
    synonyms: Record<never, never> | undefined;
    replaceSynonyms: { sets: string[][] };
    pins: Record<never, never> | undefined;
    replacePins: { pins: PinInput[] };
  };
  changes: { list: ListChangesInput };
  webhooks: Omit<RouterInputs['webhooks'], 'deliveries' | 'list'> & {
    list: { enabled?: 'true' | 'false' } | undefined;
    deliveries: { id: string; limit?: number };
  };
  tasks: Omit<RouterInputs['tasks'], 'list' | 'complete'> & {
    list: ListTasksInput;
    complete: CompleteTaskInput;
  };
  keys: Omit<RouterInputs['keys'], 'list' | 'self'> & {
    list: { limit?: number; cursor?: string } | undefined;
    self: Record<never, never> | undefined;
  };
  restore: Omit<RouterInputs['restore'], 'status'> & { status: Record<never, never> | undefined };
};

/** One method per endpoint; each resolves to the full success body of the REST response. */
export type Endpoints = {
  [N in keyof Inputs]: {
    // an endpoint whose input has no required field may be called without one (stats())
    [P in keyof Inputs[N] & keyof RouterOutputs[N]]: Record<never, never> extends Inputs[N][P]
      ? (input?: Inputs[N][P]) => Promise<Output<N, P>>
      : (input: Inputs[N][P]) => Promise<Output<N, P>>;
  };
};

/** The answer of an endpoint; a project's (get, edit) with its `etag`, for `edit`'s `ifMatch`. */
type Output<N extends keyof RouterOutputs, P extends keyof RouterOutputs[N]> = N extends 'projects'
  ? P extends 'get' | 'edit'
    ? RouterOutputs[N][P] & { etag: string }
    : RouterOutputs[N][P]
  : RouterOutputs[N][P];
