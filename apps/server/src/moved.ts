import { AppError } from '@directory/core/server';
import type { Request } from 'express';

/** The routes of one project and what is below it: `/api/projects/{slug}` and `…/{slug}/…`. */
const PROJECT_ROUTE = '/api/projects/:slug';

/**
 * A merged slug's answer on a route below the project (docs/curation.md#same-project-other-spelling): the
 * procedure names the target project (`/api/projects/<target>`); the redirect keeps the rest of
 * the request's path and its query, so `…/<alias>/revisions?limit=5` moves to
 * `…/<target>/revisions?limit=5`, not to the project itself.
 */
export function movedHere(req: Request, routePath: string, error: AppError): AppError {
  if (error.kind !== 'MOVED' || error.location === undefined) return error;
  if (routePath !== PROJECT_ROUTE && !routePath.startsWith(`${PROJECT_ROUTE}/`)) return error;
  const url = new URL(req.originalUrl, 'http://host');
  // ['', 'api', 'projects', '<slug>', …rest]
  const rest = url.pathname.split('/').slice(4);
  const location = `${error.location}${rest.length ? `/${rest.join('/')}` : ''}${url.search}`;
  return new AppError('MOVED', error.details, { location });
}
