import { request } from '../../../lib/api-client.ts';

// Renaming, merging and unmerging tags (docs/curation.md#tags), each with the curator's key.

/**
 * Sets the names given (either language, or both). The same client then reads the tag list once,
 * which waits for the write's position (the SDK sends it as minPosition): the answer comes when
 * the read model has the change, so the list refetched after it shows it.
 */
export const renameTag = (slug: string, names: { name?: string; nameEn?: string }) =>
  request(
    async (client) => {
      const reply = await client.tags.rename({ slug, ...names });
      await client.tags.find({ limit: 1 });
      return reply;
    },
    { key: true },
  );

/** Merges `slug` into `into` (then waits as renameTag does); `summary` goes on each revision stored. */
export const mergeTag = (slug: string, into: string, summary: string) =>
  request(
    async (client) => {
      const reply = await client.tags.merge({ slug, into });
      await client.tags.find({ limit: 1 });
      return reply;
    },
    { key: true, summary },
  );

/**
 * Undoes the merge of the alias `slug` (docs/curation.md#undoing-a-merge), then waits as renameTag
 * does; `summary` goes on each revision stored.
 */
export const unmergeTag = (slug: string, summary: string) =>
  request(
    async (client) => {
      const reply = await client.tags.unmerge({ slug });
      await client.tags.find({ limit: 1 });
      return reply;
    },
    { key: true, summary },
  );

/** A project's names, to say which projects an unmerge left as they were. */
export const projectNames = (slug: string, signal?: AbortSignal) =>
  request(async (client) => (await client.projects.get({ slug })).data, { signal });
