import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// A project's history (docs/curation.md#history-revert-locks-and-restore).

export type RevisionSummary = RouterOutputs['projects']['revisions']['revisions'][number];
export type Revision = RouterOutputs['projects']['revision']['data'];

export const listRevisions = (slug: string, cursor: string | null, signal?: AbortSignal) =>
  request((client) => client.projects.revisions({ slug, limit: 50, ...(cursor && { cursor }) }), { signal });

export const getRevision = (slug: string, revision: number, signal?: AbortSignal) =>
  request((client) => client.projects.revision({ slug, revision }), { signal });

// `summary` (each write's): why, recorded on its revisions (docs/curation.md#edit-summaries)

export const revertProject = (
  slug: string,
  revision: number,
  links: 'fail' | 'skip' = 'fail',
  summary = '',
) => request((client) => client.projects.revert({ slug, revision, links }), { key: true, summary });

/** Merges `from` into `into` (a revert's "merge <owner> here"). */
export const mergeProject = (from: string, into: string, summary = '') =>
  request((client) => client.projects.merge({ slug: from, into }), { key: true, summary });
