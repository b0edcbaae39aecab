/**
 * Coverage (docs/search.md#ranking-rules): of two projects the rules before leave tied, the one
 * whose name the query covers more of first — "Ollama" before "Ollama Chat 92", 通义千问 before
 * "通义千问 API 4001", as field-length normalisation does in BM25. The query is the same for
 * every project of a search, so the share orders as the length of the project's shortest name
 * does: its words first (a run of Chinese characters is one), then its letters — a name with
 * Chinese counted in its pinyin, so that 通义千问 is not shorter than "Hunyuan Video" for being
 * written in fewer characters. Static per project (terms.ts computes it, the store keeps it per
 * document): byRank (store-state.ts) keeps the directory in this order.
 */

/** The largest brevity: 255 words or more. */
export const MAX_BREVITY = 0xffff;

/** The brevity of a name of `words` words and `letters` letters: the fewer words, then letters, the smaller. */
export const brevityOf = (words: number, letters: number): number =>
  Math.min(255, words) * 256 + Math.min(255, letters);

/** The words of a brevity. */
export const brevityWords = (brevity: number): number => brevity >> 8;

/** The share of the shortest name a query of `words` words covers, 0–1. */
export const coverageShare = (words: number, brevity: number): number =>
  brevityWords(brevity) === 0 ? 0 : Math.min(1, words / brevityWords(brevity));
