import { createHash } from 'node:crypto';
import type { Project } from '../schemas/project.ts';

/**
 * A revision's stored body: the project as endpoint 2 shows it, as JSON text, and the hash that
 * decides whether an update changed anything: of the same text with `updatedAt` blanked (every
 * upsert moves it, even one that repeats the project exactly). One serialisation for both.
 */
export function projectBody(project: Project): { body: string; hash: string } {
  const body = JSON.stringify(project);
  const stamp = `"updatedAt":${JSON.stringify(project.updatedAt)}`;
  const hash = createHash('sha256')
    .update(body.replace(stamp, '"updatedAt":""'))
    .digest('base64url')
    .slice(0, 22);
  return { body, hash };
}
