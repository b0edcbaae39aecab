import { type Database, findProjectDetailsByIds, type Kysely } from '@directory/db';
import { toProject } from '../schemas/project.ts';
import type { DetailCache, ProjectBody as Project } from './detail-cache.ts';

/**
 * The projects of a page in the API's shape, in the order of `ids`: from the detail cache,
 * the misses read in one statement. A project deleted meanwhile is left out.
 */
export async function projectsOf(
  db: Kysely<Database>,
  details: DetailCache,
  ids: string[],
): Promise<Project[]> {
  const out: (Project | undefined)[] = ids.map((id) => details.get(id));
  const missing = ids.filter((_, i) => out[i] === undefined);
  if (missing.length > 0) {
    const since = details.begin();
    try {
      const rows = await findProjectDetailsByIds(db, missing);
      const byId = new Map(rows.map((r) => [r.id, toProject(r)]));
      for (let i = 0; i < ids.length; i++) {
        if (out[i] !== undefined) continue;
        const p = byId.get(ids[i]!);
        out[i] = p;
        if (p) details.fill(p, since);
      }
    } finally {
      details.end();
    }
  }
  return out.filter((p): p is Project => p !== undefined);
}
