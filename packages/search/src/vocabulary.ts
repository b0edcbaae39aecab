import { DocTable } from './doc-table.ts';
import { CACHE_ENTRIES, TYPO_WALK_STEPS } from './limits.ts';
import { Postings } from './postings.ts';
import { SortedList } from './sorted-list.ts';
import { PrefixDistance, prefixDistance } from './typo.ts';

/*
 * The distinct Latin tokens (English words, pinyin, slugs, digits) of every indexed text, each
 * a dense integer whose postings say which projects hold it. A query term is matched against
 * the vocabulary, not against every project: a term of 3+ characters is a substring of the
 * token (found through the tokens' trigrams: the rarest trigram of the term gives candidates,
 * `includes` decides), a shorter term starts the token (a range of the sorted tokens), and a
 * typo is a walk over the sorted tokens with edit-distance rows shared by common prefixes.
 * A token stays in the vocabulary when its last project goes (its postings are then empty).
 */
/** What a query term matches in the vocabulary: tokens without typos, and tokens with their typos. */
export interface Expansion {
  exact: number[];
  typo: number[];
  typos: number[];
  /**
   * True when the typo walk over the whole vocabulary went past TYPO_WALK_STEPS: the typos
   * are then those of the tokens that start with the word's first letter (a second walk with
   * the same budget), or none when that one too goes past it.
   */
  cut: boolean;
}

interface Cached extends Expansion {
  term: string;
  k: number;
}

export class Vocabulary {
  readonly strings: string[] = [];
  /** Tokens by text (a hash table of their numbers: doc-table.ts). */
  private readonly ids = new DocTable((id) => this.strings[id]);
  private readonly sorted: SortedList;
  /** The tokens of each trigram (by its number in trigramIds), as posting lists. */
  private readonly trigramIds = new Map<string, number>();
  private readonly trigrams = new Postings();
  /** Expansions kept (CACHE_ENTRIES); each new token is checked against them, so writes do not empty it. */
  private readonly cache = new Map<string, Cached>();
  /** Tokens not yet in the sorted order (sorted when a query needs it: a build sorts once). */
  private pending: number[] = [];

  constructor() {
    // reads this.strings when called, not the array of the constructor: a vocabulary read back
    // from a snapshot (persist.ts) has another
    this.sorted = new SortedList((a, b) => {
      const s = this.strings;
      return s[a]! < s[b]! ? -1 : s[a]! > s[b]! ? 1 : 0;
    });
  }

  get size(): number {
    return this.strings.length;
  }

  id(token: string): number | undefined {
    return this.ids.get(token);
  }

  /** The id of a token, added when new. */
  intern(token: string): number {
    let id = this.ids.get(token);
    if (id !== undefined) return id;
    id = this.strings.length;
    this.strings.push(token);
    this.ids.set(token, id);
    this.pending.push(id);
    for (let i = 0; i + 3 <= token.length; i++) {
      const g = token.slice(i, i + 3);
      let t = this.trigramIds.get(g);
      if (t === undefined) {
        t = this.trigramIds.size;
        this.trigramIds.set(g, t);
      }
      this.trigrams.add(t, id);
    }
    // the cached expansions stay exact: each learns whether the new token matches it
    for (const c of this.cache.values()) {
      if (exactly(c.term, token)) c.exact.push(id);
      else if (c.k > 0 && !c.cut) {
        const dist = prefixDistance(c.term, c.k, token);
        if (dist <= c.k) {
          c.typo.push(id);
          c.typos.push(dist);
        }
      }
    }
    return id;
  }

  /** Puts the new tokens in order now (a build does, so that its first query does not). */
  prepare(): void {
    this.order();
    this.trigrams.trim();
  }

  /** The sorted order, with the pending tokens in. */
  private order(): SortedList {
    if (this.pending.length > 0) {
      if (this.pending.length > 1000 && this.pending.length > this.sorted.length / 8)
        this.sorted.reset(this.strings.map((_, i) => i));
      else for (const id of this.pending) this.sorted.insert(id);
      this.pending = [];
    }
    return this.sorted;
  }

  /** The tokens a term matches exactly, and those within k typos (k = 0: none). */
  expand(term: string, k: number): Expansion {
    const key = `${k}:${term}`;
    let c = this.cache.get(key);
    if (c) {
      // most recently used last
      this.cache.delete(key);
      this.cache.set(key, c);
      return c;
    }
    const exact = term.length <= 2 ? this.startingWith(term) : this.containing(term);
    // the whole vocabulary within the budget, else the tokens of the word's first letter
    // (Meilisearch never counts a first letter as a typo), else no typos
    const walk =
      k > 0
        ? (this.typos(term, k, TYPO_WALK_STEPS) ?? this.typos(term, k, TYPO_WALK_STEPS, term[0]))
        : { ids: [], typos: [] };
    c = { term, k, exact, typo: walk?.ids ?? [], typos: walk?.typos ?? [], cut: walk === null };
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, c);
    return c;
  }

  /** Tokens containing a term of 3+ characters. */
  private containing(term: string): number[] {
    let rarest = -1;
    for (let i = 0; i + 3 <= term.length; i++) {
      const t = this.trigramIds.get(term.slice(i, i + 3));
      if (t === undefined) return [];
      if (rarest < 0 || this.trigrams.size(t) < this.trigrams.size(rarest)) rarest = t;
    }
    if (rarest < 0) return [];
    const out: number[] = [];
    const s = this.strings;
    const { docs, n } = this.trigrams.view(rarest);
    for (let i = 0; i < n; i++) if (s[docs[i]!]!.includes(term)) out.push(docs[i]!);
    return out;
  }

  /** Tokens starting with a prefix. */
  private startingWith(prefix: string): number[] {
    const s = this.strings;
    const out: number[] = [];
    const sorted = this.order();
    const pos = sorted.seek((x) => s[x]! < prefix);
    for (let x = sorted.at(pos); x !== undefined && s[x]!.startsWith(prefix); x = sorted.at(pos)) {
      out.push(x);
      sorted.step(pos);
    }
    return out;
  }

  /**
   * Tokens a prefix of which is 1..k edits from the word and that do not contain it (those
   * match it exactly), with their distance: a walk over the sorted tokens (a trie laid flat)
   * that extends the edit-distance rows from the prefix a token shares with the one before,
   * and skips every token of a prefix that is already more than k edits away (a gallop from
   * where the walk is). `within`: only the tokens that start with it. Null when the walk
   * takes more than `budget` steps (tokens visited and skips).
   */
  private typos(
    word: string,
    k: number,
    budget: number,
    within = '',
  ): { ids: number[]; typos: number[] } | null {
    const s = this.strings;
    let steps = 0;
    const list = this.order();
    const dp = new PrefixDistance(word, k);
    const ids: number[] = [];
    const typos: number[] = [];
    // `valid`: depth up to which dp's rows describe `prev`
    let prev = '';
    let valid = 0;
    const pos = within ? list.seek((v) => s[v]! < within) : list.start();
    for (let x = list.at(pos); x !== undefined; x = list.at(pos)) {
      if (++steps > budget) return null;
      const t = s[x]!;
      if (within && !t.startsWith(within)) break;
      let lcp = 0;
      const limit = Math.min(valid, t.length, prev.length);
      while (lcp < limit && t.charCodeAt(lcp) === prev.charCodeAt(lcp)) lcp++;
      const reached = dp.extend(t, lcp);
      if (reached < t.length || pruned(dp, reached, k)) {
        // every token with the prefix t[0..reached) is as far as the prefix one shorter
        const prefix = t.slice(0, reached);
        const dist = dp.best[reached - 1]!;
        if (dist <= k) {
          for (let v = list.at(pos); v !== undefined && s[v]!.startsWith(prefix); v = list.at(pos)) {
            if (++steps > budget) return null;
            if (dist > 0 && !s[v]!.includes(word)) {
              ids.push(v);
              typos.push(dist);
            }
            list.step(pos);
          }
        } else {
          // past every token with the prefix: they sort below the prefix and U+FFFF
          const upper = `${prefix}\uffff`;
          steps += list.skip(pos, (v) => s[v]! < upper);
        }
        prev = prefix;
        valid = reached - 1;
        continue;
      }
      const dist = dp.best[t.length]!;
      if (dist > 0 && dist <= k && !t.includes(word)) {
        ids.push(x);
        typos.push(dist);
      }
      prev = t;
      valid = t.length;
      list.step(pos);
    }
    return { ids, typos };
  }

  bytes(): number {
    let b = this.sorted.bytes() + this.pending.length * 8;
    for (const t of this.strings) b += 24 + t.length * 2;
    return b + this.ids.bytes() + this.trigrams.bytes() + this.trigramIds.size * 64;
  }
}

/** Whether a term matches a token without typos: a substring, or for 1–2 characters a prefix. */
export const exactly = (term: string, token: string): boolean =>
  term.length <= 2 ? token.startsWith(term) : token.includes(term);

/** Whether the rows at depth d went over k (extend stopped there). */
function pruned(dp: PrefixDistance, d: number, k: number): boolean {
  if (d === 0) return false;
  const row = dp.rows[d]!;
  for (let j = 0; j < row.length; j++) if (row[j]! <= k) return false;
  return true;
}
