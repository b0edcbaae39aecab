import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// EXTENSIONS.md F: a project's history.

export type RevisionSummary = RouterOutputs['projects']['revisions']['revisions'][number];
export type Revision = RouterOutputs['projects']['revision']['data'];

export const listRevisions = (slug: string, cursor: string | null, signal?: AbortSignal) =>
  request((client) => client.projects.revisions({ slug, limit: 50, ...(cursor && { cursor }) }), { signal });

export const getRevision = (slug: string, revision: number, signal?: AbortSignal) =>
  request((client) => client.projects.revision({ slug, revision }), { signal });

export const revertProject = (slug: string, revision: number) =>
  request((client) => client.projects.revert({ slug, revision }), { key: true });
