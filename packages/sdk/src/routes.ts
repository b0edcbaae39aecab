import type { RouterInputs } from '@directory/core';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** The OpenAPI form of the path: `{slug}` and `{id}` are taken from the input. */
  path: string;
  /**
   * Whether sending the request again after a 5xx, a timeout or a lost connection is harmless.
   * Reads are; so are the writes identified by their content (an upsert or a task create
   * converges to the same state, only its created/updated counts may differ). A delete, a
   * status change or a complete repeated after it took effect would report a misleading
   * 404 or 409 instead of the success that happened, so they are not repeated.
   */
  repeatable: boolean;
  /**
   * Served from the server's read model: the SDK sends the position of its own last write as
   * `minPosition`, so that a read after a write sees it whichever process answers
   * (docs/search.md#how-it-is-served-a-read-model-in-every-process).
   */
  readsModel?: true;
  /** The answer's `ETag` is added to it as `etag`; an input's `ifMatch` is sent as `If-Match`. */
  etag?: true;
  /** A DELETE whose input goes in a JSON body (as a POST's), not the query. */
  bodyInput?: true;
}

/**
 * The REST route of every procedure: the only place the SDK knows them. A test compares it
 * with the server's `meta.openapi`, and the `satisfies` clause makes a procedure missing here
 * a compile error.
 */
export const ROUTES = {
  projects: {
    upsert: { method: 'POST', path: '/api/webhook/projects', repeatable: true },
    find: { method: 'GET', path: '/api/projects', repeatable: true, readsModel: true },
    get: { method: 'GET', path: '/api/projects/{slug}', repeatable: true, readsModel: true, etag: true },
    related: { method: 'GET', path: '/api/projects/{slug}/related', repeatable: true, readsModel: true },
    // an edit repeated converges on the same content (the repeat stores no revision); with
    // ifMatch a repeat after it took effect would answer 412, so it is not repeated
    edit: { method: 'PATCH', path: '/api/projects/{slug}', repeatable: false, etag: true },
    delete: { method: 'DELETE', path: '/api/projects/{slug}', repeatable: false },
    checkDuplicates: { method: 'POST', path: '/api/webhook/check-duplicates', repeatable: true },
    byUrl: { method: 'GET', path: '/api/projects/by-url', repeatable: true },
    // a merge repeated after it took effect would answer 409 (the slug is an alias by then)
    merge: { method: 'POST', path: '/api/projects/{slug}/merge', repeatable: false },
    duplicates: { method: 'GET', path: '/api/projects/duplicates', repeatable: true },
    // recording (or removing) the same pairs again changes nothing
    dismissDuplicates: { method: 'POST', path: '/api/projects/duplicates/dismiss', repeatable: true },
    undismissDuplicates: {
      method: 'DELETE',
      path: '/api/projects/duplicates/dismiss',
      repeatable: true,
      bodyInput: true,
    },
    // history (docs/curation.md#history-revert-locks-and-restore)
    revisions: { method: 'GET', path: '/api/projects/{slug}/revisions', repeatable: true },
    revision: { method: 'GET', path: '/api/projects/{slug}/revisions/{revision}', repeatable: true },
    diff: { method: 'GET', path: '/api/projects/{slug}/revisions/{revision}/diff', repeatable: true },
    // a revert repeated converges on the same content (the repeat stores no revision)
    revert: { method: 'POST', path: '/api/projects/{slug}/revert', repeatable: true },
    deleted: { method: 'GET', path: '/api/projects/deleted', repeatable: true },
    // a restore repeated after it took effect would answer 409 (not deleted)
    restore: { method: 'POST', path: '/api/projects/deleted/{id}/restore', repeatable: false },
    // setting or clearing the same lock again changes nothing
    lock: { method: 'PUT', path: '/api/projects/{slug}/lock', repeatable: true },
    unlock: { method: 'DELETE', path: '/api/projects/{slug}/lock', repeatable: true },
  },
  tasks: {
    create: { method: 'POST', path: '/api/discovery/tasks', repeatable: true },
    list: { method: 'GET', path: '/api/discovery/tasks', repeatable: true },
    get: { method: 'GET', path: '/api/discovery/tasks/{id}', repeatable: true },
    updateStatus: { method: 'PATCH', path: '/api/discovery/tasks/{id}', repeatable: false },
    complete: { method: 'POST', path: '/api/discovery/tasks/{id}/complete', repeatable: false },
    checkDuplicates: { method: 'POST', path: '/api/discovery/check-duplicates', repeatable: true },
    // a repeated claim could take more tasks whose leases the first reply's loss would strand
    claim: { method: 'POST', path: '/api/discovery/tasks/claim', repeatable: false },
    // extending a lease again from now is harmless
    heartbeat: { method: 'POST', path: '/api/discovery/tasks/{id}/heartbeat', repeatable: true },
    release: { method: 'POST', path: '/api/discovery/tasks/{id}/release', repeatable: false },
    stats: { method: 'GET', path: '/api/discovery/stats', repeatable: true },
  },
  changes: {
    list: { method: 'GET', path: '/api/changes', repeatable: true },
  },
  webhooks: {
    // A create repeated after it took effect would make a second webhook.
    create: { method: 'POST', path: '/api/webhooks', repeatable: false },
    list: { method: 'GET', path: '/api/webhooks', repeatable: true },
    get: { method: 'GET', path: '/api/webhooks/{id}', repeatable: true },
    delete: { method: 'DELETE', path: '/api/webhooks/{id}', repeatable: false },
    // enabling or disabling again changes nothing
    update: { method: 'PATCH', path: '/api/webhooks/{id}', repeatable: true },
    deliveries: { method: 'GET', path: '/api/webhooks/{id}/deliveries', repeatable: true },
    delivery: { method: 'GET', path: '/api/webhooks/{id}/deliveries/{deliveryId}', repeatable: true },
    // a redelivery repeated sends the message once more (receivers drop a repeated webhook-id)
    redeliver: {
      method: 'POST',
      path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      repeatable: false,
    },
    ping: { method: 'POST', path: '/api/webhooks/{id}/ping', repeatable: true },
    // a rotation repeated makes yet another secret (and ends the first one's grace)
    rotateSecret: { method: 'POST', path: '/api/webhooks/{id}/rotate-secret', repeatable: false },
  },
  tags: {
    find: { method: 'GET', path: '/api/tags', repeatable: true, readsModel: true },
    // renaming to the same names again changes nothing
    rename: { method: 'PATCH', path: '/api/tags/{slug}', repeatable: true },
    // a merge repeated after it took effect answers as the first did
    merge: { method: 'POST', path: '/api/tags/{slug}/merge', repeatable: true },
    // an unmerge repeated after it took effect answers 409 (the tag is not merged by then)
    unmerge: { method: 'POST', path: '/api/tags/{slug}/unmerge', repeatable: false },
  },
  search: {
    synonyms: { method: 'GET', path: '/api/search/synonyms', repeatable: true },
    // replacing all sets with the same sets again is harmless
    replaceSynonyms: { method: 'PUT', path: '/api/search/synonyms', repeatable: true },
    pins: { method: 'GET', path: '/api/search/pins', repeatable: true },
    // replacing all pins with the same pins again is harmless
    replacePins: { method: 'PUT', path: '/api/search/pins', repeatable: true },
  },
  keys: {
    // a create or rotate repeated after it took effect would make a second key
    create: { method: 'POST', path: '/api/keys', repeatable: false },
    list: { method: 'GET', path: '/api/keys', repeatable: true },
    self: { method: 'GET', path: '/api/keys/self', repeatable: true },
    // revoking a revoked key changes nothing and answers the same
    revoke: { method: 'DELETE', path: '/api/keys/{id}', repeatable: true },
    rotate: { method: 'POST', path: '/api/keys/{id}/rotate', repeatable: false },
  },
  // docs/operating.md#restore-from-an-export
  restore: {
    status: { method: 'GET', path: '/api/restore', repeatable: true },
    // a batch repeated after it took effect is refused (409: its ids are restored already); the
    // CLI then resumes from GET /api/restore
    batch: { method: 'POST', path: '/api/restore', repeatable: false },
  },
} as const satisfies { [N in keyof RouterInputs]: { [P in keyof RouterInputs[N]]: Route } };

/** The method, URL and body of one call: path parameters from the input, the rest in the query or body. */
export function buildRequest(
  baseUrl: string,
  route: Route,
  input: Record<string, unknown>,
): { url: string; body: string | undefined } {
  const rest: Record<string, unknown> = { ...input };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  if (route.method === 'GET' || (route.method === 'DELETE' && !route.bodyInput)) {
    for (const [key, value] of Object.entries(rest)) {
      // a list is a repeated parameter (`?tag=a&tag=b`)
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return { url: url.toString(), body: undefined };
  }
  return { url: url.toString(), body: JSON.stringify(rest) };
}
