import { SortedList } from './sorted-list.ts';
import { PrefixDistance } from './typo.ts';

/*
 * The distinct Latin tokens (English words, pinyin, slugs, digits) of every indexed text, each
 * a dense integer whose postings say which projects hold it. A query term is matched against
 * the vocabulary, not against every project: a term of 3+ characters is a substring of the
 * token (found through the tokens' trigrams: the rarest trigram of the term gives candidates,
 * `includes` decides), a shorter term starts the token (a range of the sorted tokens), and a
 * typo is a walk over the sorted tokens with edit-distance rows shared by common prefixes.
 * A token stays in the vocabulary when its last project goes (its postings are then empty).
 */
export class Vocabulary {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly sorted: SortedList;
  private readonly trigrams = new Map<string, number[]>();
  /** Bumped when a token is added: cached expansions of query terms are then stale. */
  version = 0;

  constructor() {
    const s = this.strings;
    this.sorted = new SortedList((a, b) => (s[a]! < s[b]! ? -1 : s[a]! > s[b]! ? 1 : 0));
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
    this.sorted.insert(id);
    for (let i = 0; i + 3 <= token.length; i++) {
      const g = token.slice(i, i + 3);
      const list = this.trigrams.get(g);
      if (!list) this.trigrams.set(g, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    }
    this.version++;
    return id;
  }

  /** Tokens containing a term of 3+ characters. */
  containing(term: string): number[] {
    let rarest: number[] | undefined;
    for (let i = 0; i + 3 <= term.length; i++) {
      const list = this.trigrams.get(term.slice(i, i + 3));
      if (!list) return [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    if (!rarest) return [];
    const out: number[] = [];
    const s = this.strings;
    for (const id of rarest) if (s[id]!.includes(term)) out.push(id);
    return out;
  }

  /** Tokens starting with a prefix. */
  startingWith(prefix: string): number[] {
    const s = this.strings;
    const out: number[] = [];
    const from = this.sorted.seek((x) => s[x]! < prefix);
    this.sorted.forward(from, (x) => {
      if (!s[x]!.startsWith(prefix)) return false;
      out.push(x);
      return true;
    });
    return out;
  }

  /**
   * Tokens a prefix of which is 1..k edits from the word and that do not contain it (those
   * match it exactly), with their distance.
   */
  typos(word: string, k: number): { ids: number[]; typos: number[] } {
    const s = this.strings;
    const dp = new PrefixDistance(word, k);
    const ids: number[] = [];
    const typos: number[] = [];
    // `valid`: depth up to which dp's rows describe `prev`
    let prev = '';
    let valid = 0;
    let pos = this.sorted.start();
    for (;;) {
      let x: number | undefined;
      this.sorted.forward(pos, (v) => {
        x = v;
        return false;
      });
      if (x === undefined) break;
      const t = s[x]!;
      let lcp = 0;
      const limit = Math.min(valid, t.length, prev.length);
      while (lcp < limit && t.charCodeAt(lcp) === prev.charCodeAt(lcp)) lcp++;
      const reached = dp.extend(t, lcp);
      if (reached < t.length || (reached === t.length && reached > 0 && pruned(dp, reached, k))) {
        // every token with the prefix t[0..reached) has the same distance: best up to reached - 1
        const prefix = t.slice(0, reached);
        const dist = dp.best[reached - 1]!;
        const next = this.sorted.seek((v) => s[v]! < prefix || s[v]!.startsWith(prefix));
        if (dist <= k) {
          this.sorted.forward(pos, (v) => {
            if (!s[v]!.startsWith(prefix)) return false;
            if (dist > 0 && !s[v]!.includes(word)) {
              ids.push(v);
              typos.push(dist);
            }
            return true;
          });
        }
        pos = next;
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
      pos = this.sorted.seek((v) => s[v]! <= t);
    }
    return { ids, typos };
  }

  bytes(): number {
    let b = this.sorted.bytes();
    for (const t of this.strings) b += 24 + t.length * 2 + 48;
    for (const list of this.trigrams.values()) b += 64 + list.length * 8;
    return b;
  }
}

/** Whether the rows at depth d went over k (extend stopped there). */
function pruned(dp: PrefixDistance, d: number, k: number): boolean {
  const row = dp.rows[d]!;
  for (let j = 0; j < row.length; j++) if (row[j]! <= k) return false;
  return true;
}
