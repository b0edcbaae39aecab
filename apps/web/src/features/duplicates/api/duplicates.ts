import type { RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

// EXTENSIONS.md E: duplicates and merges.

export type DuplicateGroup = RouterOutputs['projects']['duplicates']['groups'][number];

export const listDuplicates = (cursor: string | null, signal?: AbortSignal) =>
  request((client) => client.projects.duplicates({ limit: 20, ...(cursor && { cursor }) }), {
    key: true,
    signal,
  });

export const mergeProject = (slug: string, into: string) =>
  request((client) => client.projects.merge({ slug, into }), { key: true });
