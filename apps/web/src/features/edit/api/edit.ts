import type { RouterInputs, RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// Editing a project, with If-Match (docs/curation.md#patch-apiprojectsslug-with-if-match--curate).

export type Project = RouterOutputs['projects']['get']['data'];
export type EditInput = Omit<RouterInputs['projects']['edit'], 'slug'>;

/** The project with the ETag its edit sends back as If-Match. */
export const getForEdit = async (slug: string, signal?: AbortSignal) => {
  const reply = await request((client) => client.projects.get({ slug }), { signal });
  return { project: reply.data, etag: reply.etag };
};

/** `summary`: why, recorded on the revision (docs/curation.md#edit-summaries). */
export const saveEdit = (slug: string, input: EditInput, ifMatch: string, summary: string) =>
  request((client) => client.projects.edit({ slug, ...input, ifMatch }), { key: true, summary });

/** Who made the project's latest revision, and when (a conflict names them). */
export const latestRevision = async (slug: string) => {
  const reply = await request((client) => client.projects.revisions({ slug, limit: 1 }));
  return reply.revisions[0];
};

export const deleteProject = (slug: string) =>
  request((client) => client.projects.delete({ slug }), { key: true });
