import { z } from 'zod';

/** A tag as the tag endpoints show it: its slug, names and the slugs of the tags merged into it. */
export const CuratedTag = z.object({
  id: z.string(),
  name: z.string(),
  nameEn: z.string().nullable(),
  slug: z.string(),
  aliases: z.array(z.string()).meta({
    description: 'The slugs of the tags merged into this one: each filters and is written as this tag',
  }),
});
export type CuratedTag = z.infer<typeof CuratedTag>;

export const LLM_TAG = {
  id: 'c1a2b3c4d5e6f7g8h9i0j1k2',
  name: '大模型',
  nameEn: 'LLM',
  slug: 'llm',
  aliases: ['llm-2'],
};
