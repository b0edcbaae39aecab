import { LOCK_FIELDS, type LockFieldName } from '@directory/core/lock-fields';
import { request } from '../../../lib/api-client.ts';

// EXTENSIONS.md F: the fields a lock keeps from imports and crawlers.

export type LockField = LockFieldName;
export { LOCK_FIELDS };

export const lockProject = (slug: string, fields: LockField[], reason: string) =>
  request(
    (client) => client.projects.lock({ slug, fields, ...(reason.trim() && { reason: reason.trim() }) }),
    {
      key: true,
    },
  );

export const unlockProject = (slug: string) =>
  request((client) => client.projects.unlock({ slug }), { key: true });
