import { z } from 'zod';
import type { Meta } from '../meta.ts';
import { text } from '../schemas/common.ts';
import { queryObject } from '../schemas/query.ts';

const EXAMPLE = [
  ['大模型', '大语言模型', 'LLM'],
  ['多模态', 'multimodal'],
];

export const getSynonymsMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/search/synonyms',
    protect: false,
    tags: ['search'],
    summary: 'The search synonyms',
    description:
      'Sets of terms that search treats alike: a query word equal to a term (case-insensitive) also ' +
      'matches every other term of its set, ranked just below the word itself.',
  },
  examples: { request: {}, response: { success: true, sets: EXAMPLE } },
};

export const replaceSynonymsMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'PUT',
    path: '/api/search/synonyms',
    protect: true,
    tags: ['search'],
    summary: 'Replace every search synonym set',
    description:
      'Replaces all sets (at most 1,000 sets of 2–20 terms, each 1–50 characters; a term in two sets, ' +
      'compared case-insensitively, is a 400). Every server process applies them within a second; this ' +
      'one before it answers.',
  },
  examples: { request: { sets: EXAMPLE }, response: { success: true, sets: EXAMPLE } },
};

export const GetSynonymsInput = queryObject({});

export const SynonymSets = z
  .array(
    z
      .array(text({ min: 1, max: 50 }))
      .min(2)
      .max(20),
  )
  .max(1000)
  .superRefine((sets, ctx) => {
    const seen = new Map<string, number>();
    sets.forEach((set, i) => {
      set.forEach((term, j) => {
        const key = term.trim().toLowerCase();
        const at = seen.get(key);
        if (at !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [i, j],
            message:
              at === i
                ? `"${term}" appears twice in this set`
                : `"${term}" is already a term of set ${at}; a term belongs to one set`,
          });
        else seen.set(key, i);
      });
    });
  });

export const ReplaceSynonymsInput = z.object({ sets: SynonymSets });

export const SynonymsOutput = z.object({ success: z.literal(true), sets: z.array(z.array(z.string())) });
