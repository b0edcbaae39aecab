import fc from 'fast-check';

/**
 * The routes fuzz.test.ts sends to (docs/keys-and-limits.md#hostile-input), and a request as
 * written: with markers (`@@KEY@@`, `@@TASK_0@@`, …) that are replaced just before sending.
 */

export const ROUTES = {
  upsert: { method: 'POST', path: '/api/webhook/projects', keyed: true },
  getProject: { method: 'GET', path: '/api/projects/{slug}', keyed: false },
  deleteProject: { method: 'DELETE', path: '/api/projects/{slug}', keyed: true },
  createTasks: { method: 'POST', path: '/api/discovery/tasks', keyed: true },
  findTasks: { method: 'GET', path: '/api/discovery/tasks', keyed: true },
  getTask: { method: 'GET', path: '/api/discovery/tasks/{id}', keyed: false },
  patchTask: { method: 'PATCH', path: '/api/discovery/tasks/{id}', keyed: true },
  completeTask: { method: 'POST', path: '/api/discovery/tasks/{id}/complete', keyed: true },
  checkTasks: { method: 'POST', path: '/api/discovery/check-duplicates', keyed: true },
  checkProjects: { method: 'POST', path: '/api/webhook/check-duplicates', keyed: true },
  rotateSecret: { method: 'POST', path: '/api/webhooks/{id}/rotate-secret', keyed: true },
  // the seeded webhook's attempts: the delivery id is what varies
  getDelivery: { method: 'GET', path: '/api/webhooks/@@WEBHOOK@@/deliveries/{deliveryId}', keyed: true },
} as const;
export type RouteName = keyof typeof ROUTES;
export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];
export const BODY_ROUTES = ROUTE_NAMES.filter((r) => ROUTES[r].method !== 'GET');
export const PARAM_ROUTES = ROUTE_NAMES.filter((r) => ROUTES[r].path.includes('{'));
/** POSTs that only read: a duplicate check writes nothing, even when it answers 200. */
export const READ_ONLY_POSTS = new Set<string>([ROUTES.checkTasks.path, ROUTES.checkProjects.path]);

export interface Req {
  route: RouteName;
  method: string;
  /** Path and query, with markers. */
  path: string;
  /** Appended in order; `x-api-key: @@KEY@@` unless a key variation says otherwise. */
  headers: [string, string][];
  body?: string | Uint8Array;
  /** A keyed route that was sent no valid key: 401 is the only right answer. */
  expect401?: boolean;
}

export const pathOf = (route: RouteName, param = '') => ROUTES[route].path.replace(/\{\w+\}/, param);
export const KEY_HEADER: [string, string] = ['x-api-key', '@@KEY@@'];

/** A request as fast-check prints it in a counterexample: the body cut short. */
function withPrinter(req: Req): Req {
  const print = () => {
    const body =
      req.body === undefined
        ? ''
        : typeof req.body === 'string'
          ? `\n  body (${req.body.length} chars): ${JSON.stringify(req.body.slice(0, 600))}${req.body.length > 600 ? '…' : ''}`
          : `\n  body (${req.body.length} bytes, no content-type; as UTF-8): ${JSON.stringify(Buffer.from(req.body.subarray(0, 600)).toString('utf8'))}`;
    return `${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 300)}… (${req.path.length} chars)` : req.path}\n  headers: ${JSON.stringify(req.headers)}${body}${req.expect401 ? '\n  (no valid key: expects 401)' : ''}`;
  };
  return Object.assign(req, { [fc.toStringMethod]: print });
}

export function req(route: RouteName, over: Partial<Req> & { json?: unknown } = {}): Req {
  const { json, ...rest } = over;
  return withPrinter({
    route,
    method: ROUTES[route].method,
    path: pathOf(route),
    headers: [KEY_HEADER],
    ...(json !== undefined && { body: JSON.stringify(json) }),
    ...rest,
  });
}

/** Sets a property as an own, enumerable data property, also for `__proto__`. */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
