import { findProjectDetailsByIds, type ReadRouting } from '@directory/db';
import type { SearchIndex } from '@directory/search';
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

type Row = Awaited<ReturnType<typeof findProjectDetailsByIds>>[number];

/**
 * Reads projects the detail cache lacks in one statement, and keeps them there.
 *
 * Never older than the model (docs/operating.md#never-older-than-the-model): a row read on a
 * standby that is older than the version the model holds of its project (an earlier
 * `updatedAt`), or that the standby lacks while the model has it, is neither kept nor answered:
 * it is read again on the primary, and when the primary cannot answer the read is 503.
 */
export async function loadProjects(
  reads: ReadRouting,
  held: { details: DetailCache; index: SearchIndex },
  ids: string[],
): Promise<Map<string, CachedProject>> {
  const { details } = held;
  const since = details.begin();
  try {
    const source = reads.forProjects(ids);
    const primary = reads.primary();
    let rows = await findProjectDetailsByIds(source, ids);
    if (source !== primary) {
      const byId = new Map(rows.map((r) => [r.id, r]));
      const behind = ids.filter((id) => olderThanModel(held.index, id, byId.get(id)));
      if (behind.length > 0) {
        const again = new Set(behind);
        rows = rows.filter((r) => !again.has(r.id));
        // the primary unreachable: 503 (errors.ts), as any read that needs it
        rows.push(...(await findProjectDetailsByIds(primary, behind)));
      }
    }
    return new Map(rows.map((r) => [r.id, details.fill(toProject(r), since)]));
  } finally {
    details.end();
  }
}

/** Whether a row read on a standby is older than the model's version of its project (or absent). */
function olderThanModel(index: SearchIndex, id: string, row: Row | undefined): boolean {
  const held = index.project(id);
  // deleted in the model meanwhile: the page leaves it out whatever the row says
  if (!held) return false;
  if (!row) return true;
  // the row's time has milliseconds, the model's microseconds (as fractions of one)
  return Date.parse(toProject(row).updatedAt) < Math.floor(held.updatedAt);
}
