import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// Deleted projects
// (docs/curation.md#deleted-projects-get-apiprojectsdeleted-post-apiprojectsdeletedidrestore--key).

export type DeletedProject = RouterOutputs['projects']['deleted']['projects'][number];

export const listDeleted = (cursor: string | null, signal?: AbortSignal) =>
  request((client) => client.projects.deleted({ limit: 20, ...(cursor && { cursor }) }), {
    key: true,
    signal,
  });

// `summary` (each write's): why, recorded on its revisions (docs/curation.md#edit-summaries)

export const restoreProject = (id: string, links: 'fail' | 'skip' = 'fail', summary = '') =>
  request((client) => client.projects.restore({ id, links }), { key: true, summary });

export const mergeProject = (from: string, into: string, summary = '') =>
  request((client) => client.projects.merge({ slug: from, into }), { key: true, summary });
