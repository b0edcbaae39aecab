import { MAX_SPLIT_LENGTH, MIN_SPLIT_PART } from './limits.ts';
import type { Store } from './store.ts';
import { isCjkToken } from './text.ts';
import type { Word } from './word.ts';

/*
 * Split and join (docs/search.md#split-and-join): a query word also matches the two words it
 * joins — at a change between letters and digits (`gpt4o` = `gpt 4o`, "GPT-4o") or where both
 * halves are words of the directory of three letters or more (`llamacpp` → "llama.cpp", `chatglm` → "Chat GLM") —, and
 * two consecutive query words the one word they form (`chat glm` → "ChatGLM"). Each is an
 * alternative of the word as a synonym is (matching.ts): it ranks just below the same match
 * typed exactly, and, matching without typos, above every match with a typo.
 */

/** Whether the directory holds a Latin token (its postings may hold none once its projects go). */
const held = (ix: Store, token: string): boolean => {
  const id = ix.vocab.id(token);
  return id !== undefined && ix.latinName.size(id) + ix.latinDesc.size(id) > 0;
};

const LETTER_DIGIT = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/** The ways one word splits in two: at a letter/digit change, or into two words the directory holds. */
export function splitsOf(ix: Store, term: string): string[][] {
  if (isCjkToken(term) || term.length < 2 || term.length > MAX_SPLIT_LENGTH) return [];
  const out: string[][] = [];
  const parts = term.split(LETTER_DIGIT);
  if (parts.length > 1) {
    // letters then digits and letters as two words ("gpt" "4o"), and every part on its own
    const first = parts[0]!;
    out.push([first, term.slice(first.length)]);
    if (parts.length > 2) out.push(parts);
  } else if (term.length >= 2 * MIN_SPLIT_PART) {
    // halves of three letters or more: two-letter words (pinyin syllables: da, ta) would split
    // most English words into pairs of syllables that mean nothing together
    for (let i = MIN_SPLIT_PART; i <= term.length - MIN_SPLIT_PART; i++) {
      const left = term.slice(0, i);
      const right = term.slice(i);
      if (held(ix, left) && held(ix, right)) {
        out.push([left, right]);
        break;
      }
    }
  }
  return out;
}

/** The words with their splits, and consecutive one-term words joined where the directory holds the join. */
export function splitAndJoin(ix: Store, words: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (
      next &&
      w.terms.length === 1 &&
      next.terms.length === 1 &&
      w.synonyms.length === 0 &&
      next.synonyms.length === 0 &&
      !isCjkToken(w.terms[0]!) &&
      !isCjkToken(next.terms[0]!)
    ) {
      const joined = w.terms[0]! + next.terms[0]!;
      if (joined.length <= MAX_SPLIT_LENGTH && held(ix, joined)) {
        out.push({ terms: [w.terms[0]!, next.terms[0]!], synonyms: [[joined]] });
        i++;
        continue;
      }
    }
    if (w.terms.length === 1 && w.synonyms.length === 0) {
      const splits = splitsOf(ix, w.terms[0]!);
      out.push(splits.length > 0 ? { terms: w.terms, synonyms: splits } : w);
    } else out.push(w);
  }
  return out;
}
