import { createHash } from 'node:crypto';
import type { Project } from '../schemas/project.ts';

/**
 * A revision's stored body: the project as endpoint 2 shows it, as JSON text, and the hash that
 * decides whether an update changed anything: of the same JSON without `updatedAt` (which every
 * upsert moves, even one that repeats the project exactly).
 */
export function projectBody(project: Project): { body: string; hash: string } {
  const body = JSON.stringify(project);
  const { updatedAt: _, ...rest } = project;
  const hash = createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 22);
  return { body, hash };
}
