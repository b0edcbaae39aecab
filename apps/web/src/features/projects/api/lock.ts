import { request } from '../../../lib/api-client.ts';
import type { Project } from './get-project.ts';

// EXTENSIONS.md F: the fields a lock keeps from imports and crawlers.

export type LockField = NonNullable<Project['lock']>['fields'][number];
export const LOCK_FIELDS: readonly LockField[] = [
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'content',
  'contentEn',
  'status',
  'tags',
  'links',
];

export const lockProject = (slug: string, fields: LockField[], reason: string) =>
  request(
    (client) => client.projects.lock({ slug, fields, ...(reason.trim() && { reason: reason.trim() }) }),
    {
      key: true,
    },
  );

export const unlockProject = (slug: string) =>
  request((client) => client.projects.unlock({ slug }), { key: true });
