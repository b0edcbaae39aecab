import { type Database, findProjectDetailsByIds, type Kysely } from '@directory/db';
import { toProject } from '../schemas/project.ts';
import type { CachedProject, DetailCache } from './detail-cache.ts';

/**
 * The projects of a page in the API's shape, in the order of `ids`, from the detail cache (and
 * `loaded`, what was just read for it): synchronous, so that it runs in the read's turn. The ids
 * neither has are `missing`; a project deleted meanwhile is left out of `projects`.
 */
export function cachedProjects(
  details: DetailCache,
  ids: string[],
  loaded?: Map<string, CachedProject>,
): { projects: CachedProject[]; missing: string[] } {
  const projects: CachedProject[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const p = details.get(id) ?? loaded?.get(id);
    if (p) projects.push(p);
    else if (!loaded) missing.push(id);
  }
  return { projects, missing };
}

/** Reads projects the detail cache lacks in one statement, and keeps them there. */
export async function loadProjects(
  db: Kysely<Database>,
  details: DetailCache,
  ids: string[],
): Promise<Map<string, CachedProject>> {
  const since = details.begin();
  try {
    const rows = await findProjectDetailsByIds(db, ids);
    return new Map(rows.map((r) => [r.id, details.fill(toProject(r), since)]));
  } finally {
    details.end();
  }
}
