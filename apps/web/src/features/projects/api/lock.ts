import { LOCK_FIELDS, type LockFieldName } from '@directory/core/lock-fields';
import { request } from '../../../lib/api-client.ts';

// The fields a lock keeps from imports and crawlers
// (docs/curation.md#locks-put-apiprojectssluglock-fields-reason-delete-apiprojectssluglock--key).

export type LockField = LockFieldName;
export { LOCK_FIELDS };

// `summary`: why, recorded on the revision (docs/curation.md#edit-summaries)

export const lockProject = (slug: string, fields: LockField[], reason: string, summary: string) =>
  request(
    (client) => client.projects.lock({ slug, fields, ...(reason.trim() && { reason: reason.trim() }) }),
    { key: true, summary },
  );

export const unlockProject = (slug: string, summary: string) =>
  request((client) => client.projects.unlock({ slug }), { key: true, summary });
