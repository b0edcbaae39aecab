import { request } from '../../../lib/api-client.ts';

// Renaming and merging tags (docs/curation.md#tags), each with the curator's key.

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
