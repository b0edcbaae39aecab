import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// EXTENSIONS.md E: duplicates and merges.

type Duplicates = RouterOutputs['projects']['duplicates'];
export type DuplicatePage = Extract<Duplicates, { groups: unknown }>;
export type DuplicateGroup = DuplicatePage['groups'][number];
export type DismissalPage = Extract<Duplicates, { dismissals: unknown }>;

export const listDuplicates = (cursor: string | null, signal?: AbortSignal) =>
  request(
    async (client) =>
      (await client.projects.duplicates({ limit: 20, ...(cursor && { cursor }) })) as DuplicatePage,
    { key: true, signal },
  );

export const mergeProject = (slug: string, into: string) =>
  request((client) => client.projects.merge({ slug, into }), { key: true });
