import { KEYS } from '../terms.ts';

/**
 * Coverage (docs/search.md#ranking-rules): of two projects the rules before leave tied, the one
 * whose name the query covers more of first — "Ollama" before "Ollama Chat 92", 通义千问 before
 * "通义千问 API 4001", as field-length normalisation does in BM25. The query is the same for
 * every project of a search, so the share orders as the length of the project's shorter name
 * (name or nameEn, without spaces, as its keys hold it) does: shorter first. Static per project:
 * byRank (store-state.ts) keeps the directory in this order.
 */

/** The longest name length that coverage tells apart: longer names rank alike. */
export const MAX_BREVITY = 255;

/**
 * The length of a document's shortest name, in letters of one script: the name spelled in
 * pinyin when it has Chinese (通义千问 is "tongyiqianwen", so that it is not shorter than
 * "Hunyuan Video" for being written in fewer characters), else as written; or its nameEn. At
 * most MAX_BREVITY.
 */
export function brevity(st: { keyLen: ArrayLike<number> }, d: number): number {
  const spelled = st.keyLen[d * KEYS + KEY_PINYIN]!;
  const name = spelled > 0 ? spelled : st.keyLen[d * KEYS + KEY_NAME]!;
  const nameEn = st.keyLen[d * KEYS + KEY_NAME_EN]!;
  const n = nameEn > 0 && (nameEn < name || name === 0) ? nameEn : name;
  return Math.min(n, MAX_BREVITY);
}

/** The slots of the keys (terms.ts): name, nameEn, slug, full pinyin, initials. */
const KEY_NAME = 0;
const KEY_NAME_EN = 1;
const KEY_PINYIN = 3;

/** The share of the shorter name a query of `length` characters (without spaces) covers, 0–1. */
export const coverageShare = (length: number, shorterName: number): number =>
  shorterName === 0 ? 0 : Math.min(1, length / shorterName);
