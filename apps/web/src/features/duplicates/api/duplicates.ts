import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// Duplicates, merges and dismissals (docs/curation.md#same-project-other-spelling,
// docs/curation.md#duplicates-to-decide-on).

type Duplicates = RouterOutputs['projects']['duplicates'];
export type DuplicateGroup = Duplicates['groups'][number];

export const listDuplicates = (cursor: string | null, signal?: AbortSignal) =>
  request((client) => client.projects.duplicates({ limit: 20, ...(cursor && { cursor }) }), {
    key: true,
    signal,
  });

export const listDismissals = (signal?: AbortSignal) =>
  request((client) => client.projects.duplicates({ limit: 50, dismissed: true }), { key: true, signal });

/** `summary`: why, recorded on the revisions of both projects (docs/curation.md#edit-summaries). */
export const mergeProject = (slug: string, into: string, summary: string) =>
  request((client) => client.projects.merge({ slug, into }), { key: true, summary });

/** "Not duplicates": every pair of these projects is distinct. */
export const dismiss = (slugs: string[]) =>
  request((client) => client.projects.dismissDuplicates({ slugs }), { key: true });

export const undismiss = (slugs: string[]) =>
  request((client) => client.projects.undismissDuplicates({ slugs }), { key: true });
