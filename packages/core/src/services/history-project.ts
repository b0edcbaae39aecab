import { type Database, findDeletedIdBySlug, findProjectIdBySlug, type Kysely } from '@directory/db';
import { projectNotFound } from '../projects/get-project.ts';
import { missingProject } from './aliases.ts';

/**
 * The project whose history a slug names: the live project with that slug; else (a deleted
 * project keeps its revisions, docs/curation.md#history-revert-locks-and-restore) the most recently
 * deleted project that had it and is still deleted. An alias (a merged project's slug) answers as endpoint
 * 2 does, 301 to its target, before any deleted project's; else 404.
 */
export async function historyProjectId(db: Kysely<Database>, slug: string): Promise<string> {
  const id = await findProjectIdBySlug(db, slug);
  if (id !== undefined) return id;
  const missing = await missingProject(db, slug, 'read', projectNotFound(slug));
  if (missing.kind === 'MOVED') throw missing;
  const deleted = await findDeletedIdBySlug(db, slug);
  if (deleted !== undefined) return deleted;
  throw missing;
}
