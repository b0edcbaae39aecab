import { LOCK_FIELDS, type LockFieldName } from '@directory/core/lock-fields';
import { request } from '../../../lib/api-client.ts';

// The fields a lock keeps from imports and crawlers
// (docs/curation.md#locks-put-apiprojectssluglock-fields-reason-delete-apiprojectssluglock--key).

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
