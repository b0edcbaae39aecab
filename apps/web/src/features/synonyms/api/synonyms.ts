import { request } from '../../../lib/api-client.ts';

export const getSynonyms = (signal?: AbortSignal) =>
  request((client) => client.search.synonyms(), { signal });

export const replaceSynonyms = (sets: string[][]) =>
  request((client) => client.search.replaceSynonyms({ sets }), { key: true });
