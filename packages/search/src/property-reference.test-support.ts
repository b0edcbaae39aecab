import { allowed, termToken } from './property-typos.test-support.ts';
import {
  fullScore,
  KEY_EXACT,
  KEY_EXACT_SYNONYM,
  KEY_NONE,
  KEY_PREFIX,
  KEY_PREFIX_SYNONYM,
  matchCode,
  score,
} from './ranking.ts';
import { SEP, termsOf } from './terms.ts';
import { compareCodePoints, isCjkToken, nameSortKey, pinyinSyllables, tokens } from './text.ts';
import type { FacetName, IndexedProject, IndexedTag, ProjectQuery } from './types.ts';

/* The brute force of property.test.ts: every project, every token, the rules applied plainly. */

export const ALL_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;
export const LETTER_DIGIT = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

export interface Way {
  typos: number;
  cls: number;
  synonym: boolean;
}
export const rank = (w: Way) => -w.typos * 100 + w.cls * 10 - (w.synonym ? 1 : 0);

export class Reference {
  projects = new Map<string, IndexedProject>();
  tags = new Map<string, IndexedTag>();
  synonyms: string[][][] = [];

  private nameTokens(p: IndexedProject) {
    const syl = pinyinSyllables(p.name);
    const [, , , full, initials] = this.keys(p);
    return [
      ...tokens(p.name),
      ...tokens(p.nameEn),
      ...tokens(p.slug),
      ...syl,
      ...(full ? [full, initials!] : []),
    ];
  }

  /** name, nameEn, slug, full pinyin and initials (the pinyin keys as terms.ts spells them). */
  private keys(p: IndexedProject): string[] {
    return termsOf(p).keys.split(SEP).slice(1, -1);
  }

  /** The rank part of a project's full score: its shortest name (words, then letters; in pinyin when Chinese), standing 0. */
  rankOf(p: IndexedProject): number {
    const [name, nameEn, , full] = this.keys(p);
    const of = (words: number, letters: number) => Math.min(255, words) * 256 + Math.min(255, letters);
    const own = of(tokens(p.name).length, full!.length > 0 ? full!.length : name!.length);
    const en = tokens(p.nameEn).length > 0 ? of(tokens(p.nameEn).length, nameEn!.length) : 0xffff;
    return (0xffff - Math.min(own, en)) * 65536;
  }

  private heldFor: IndexedProject[] = [];
  private heldSet = new Set<string>();

  /** Whether a live project holds a Latin token (in a name-class field or a description). */
  private held(t: string): boolean {
    const now = [...this.projects.values()];
    if (now.length !== this.heldFor.length || now.some((p, i) => p !== this.heldFor[i])) {
      this.heldFor = now;
      this.heldSet = new Set(
        now.flatMap((p) => [...this.nameTokens(p), ...tokens(p.description), ...tokens(p.descriptionEn)]),
      );
    }
    return this.heldSet.has(t);
  }

  /** Split and join (docs/search.md#split-and-join), plainly. */
  private splitJoin(words: { own: string[]; syn: string[][] }[]) {
    const out: { own: string[]; syn: string[][] }[] = [];
    const one = (w: { own: string[]; syn: string[][] } | undefined) =>
      w && w.own.length === 1 && w.syn.length === 0 && !isCjkToken(w.own[0]!);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const next = words[i + 1];
      if (one(w) && one(next)) {
        const joined = w.own[0]! + next!.own[0]!;
        if (joined.length <= 32 && this.held(joined)) {
          out.push({ own: [w.own[0]!, next!.own[0]!], syn: [[joined]] });
          i++;
          continue;
        }
      }
      if (w.own.length !== 1 || w.syn.length > 0 || isCjkToken(w.own[0]!)) {
        out.push(w);
        continue;
      }
      const t = w.own[0]!;
      const syn: string[][] = [];
      if (t.length >= 2 && t.length <= 32) {
        const parts = t.split(LETTER_DIGIT);
        if (parts.length > 1) {
          syn.push([parts[0]!, t.slice(parts[0]!.length)]);
          if (parts.length > 2) syn.push(parts);
        } else
          for (let i = 3; t.length >= 6 && i <= t.length - 3; i++)
            if (this.held(t.slice(0, i)) && this.held(t.slice(i))) {
              syn.push([t.slice(0, i), t.slice(i)]);
              break;
            }
      }
      out.push({ own: w.own, syn });
    }
    return out;
  }

  /** The best way a term matches a project. */
  private term(p: IndexedProject, term: string, k: number, synonym: boolean): Way | undefined {
    const places: [number, string[]][] = [
      [3, this.nameTokens(p)],
      [
        2,
        p.tagIds.flatMap((id) => [...tokens(this.tags.get(id)!.name), ...tokens(this.tags.get(id)!.nameEn)]),
      ],
      [1, [...tokens(p.description), ...tokens(p.descriptionEn)]],
    ];
    let best: Way | undefined;
    for (const [cls, toks] of places)
      for (const tok of toks) {
        const typos = termToken(term, tok, k);
        if (typos === undefined) continue;
        const way = { typos, cls, synonym };
        if (!best || rank(way) > rank(best)) best = way;
      }
    return best;
  }

  words(q: string): { terms: string[]; words: { own: string[]; syn: string[][] }[] } {
    const terms = [...new Set(tokens(q))].slice(0, 16);
    const words: { own: string[]; syn: string[][] }[] = [];
    let i = 0;
    while (i < terms.length) {
      let best: { set: string[][]; len: number } | undefined;
      for (const set of this.synonyms)
        for (const t of set)
          if (
            terms.slice(i, i + t.length).join(' ') === t.join(' ') &&
            i + t.length <= terms.length &&
            (!best || t.length > best.len)
          )
            best = { set, len: t.length };
      if (best) {
        const own = terms.slice(i, i + best.len);
        words.push({ own, syn: best.set.filter((t) => t.join(' ') !== own.join(' ')) });
        i += best.len;
      } else {
        words.push({ own: [terms[i]!], syn: [] });
        i++;
      }
    }
    return { terms, words: this.splitJoin(words) };
  }

  /** The score, typos of a project for q, or undefined when it does not match. */
  scoreOf(p: IndexedProject, q: string, typosOn: boolean): { score: number; typos: number } | undefined {
    const { terms, words } = this.words(q);
    let worst: Way | undefined;
    for (const w of words) {
      let bestAlt: Way | undefined;
      [w.own, ...w.syn].forEach((alt, ai) => {
        let all: Way | undefined = { typos: 0, cls: 3, synonym: ai > 0 };
        for (const t of alt) {
          const way = this.term(p, t, typosOn && ai === 0 ? allowed(t) : 0, ai > 0);
          if (!way || !all) {
            all = undefined;
            continue;
          }
          all = {
            typos: Math.max(all.typos, way.typos),
            cls: Math.min(all.cls, way.cls),
            synonym: all.synonym,
          };
        }
        if (all && (!bestAlt || rank(all) > rank(bestAlt))) bestAlt = all;
      });
      if (!bestAlt) return undefined;
      worst = worst
        ? {
            typos: Math.max(worst.typos, bestAlt.typos),
            cls: Math.min(worst.cls, bestAlt.cls),
            synonym: worst.synonym || bestAlt.synonym,
          }
        : bestAlt;
    }
    if (!worst) return undefined;
    const keys = this.keys(p).filter(Boolean);
    let tier = KEY_NONE;
    const wholes: [string, boolean][] = [[terms.join(''), false]];
    if (words.length === 1) for (const s of words[0]!.syn) wholes.push([s.join(''), true]);
    for (const [whole, syn] of wholes) {
      const t = keys.includes(whole)
        ? syn
          ? KEY_EXACT_SYNONYM
          : KEY_EXACT
        : !ALL_CJK.test(whole) && keys.some((k) => k.startsWith(whole))
          ? syn
            ? KEY_PREFIX_SYNONYM
            : KEY_PREFIX
          : KEY_NONE;
      tier = Math.max(tier, t);
    }
    return { score: score(matchCode(worst.cls, worst.typos, worst.synonym), tier), typos: worst.typos };
  }

  filtered(q: ProjectQuery, ignore?: FacetName) {
    const out: { p: IndexedProject; score?: number; typos?: number }[] = [];
    for (const p of this.projects.values()) {
      let s: { score: number; typos: number } | undefined;
      if (q.q !== undefined) {
        s = this.scoreOf(p, q.q, q.typos !== false);
        if (!s) continue;
      }
      if (ignore !== 'status' && q.status && p.status !== q.status) continue;
      const slugs = p.tagIds.map((id) => this.tags.get(id)!.slug);
      if (ignore !== 'tags' && q.tagSlugs.length) {
        if (q.tagMode === 'all' && !q.tagSlugs.every((t) => slugs.includes(t))) continue;
        if (q.tagMode === 'any' && !q.tagSlugs.some((t) => slugs.includes(t))) continue;
      }
      if (ignore !== 'linkTypes' && !q.linkTypes.every((t) => p.linkTypes.includes(t))) continue;
      if (q.source !== undefined && p.source !== q.source) continue;
      if (q.updatedAfter !== undefined && !(p.updatedAt > q.updatedAfter)) continue;
      out.push({ p, ...(s && { score: s.score, typos: s.typos }) });
    }
    return out;
  }

  keyOf(q: ProjectQuery, x: { p: IndexedProject; score?: number }): number | string {
    return q.sort === 'relevance'
      ? fullScore(x.score!, this.rankOf(x.p))
      : q.sort === 'name'
        ? nameSortKey(x.p.name)
        : q.sort === 'updated'
          ? x.p.updatedAt
          : x.p.createdAt;
  }

  /** Every match in page order (before asOf), and the total. */
  ordered(q: ProjectQuery) {
    const all = this.filtered(q);
    const dir = q.order === 'asc' ? 1 : -1;
    const cmp = (a: number | string, ai: string, b: number | string, bi: string) => {
      const c = typeof a === 'number' ? a - (b as number) : compareCodePoints(a, b as string);
      return dir * (c !== 0 ? c : compareCodePoints(ai, bi));
    };
    const list = all
      .map((x) => ({ ...x, key: this.keyOf(q, x) }))
      .sort((a, b) => cmp(a.key, a.p.id, b.key, b.p.id));
    return { list, total: all.length, cmp };
  }

  facets(q: ProjectQuery) {
    const count = (values: string[]) => {
      const m = new Map<string, number>();
      for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
      return m;
    };
    return {
      status: count(this.filtered(q, 'status').map((x) => x.p.status)),
      linkTypes: count(this.filtered(q, 'linkTypes').flatMap((x) => [...new Set(x.p.linkTypes)])),
      tags: count(this.filtered(q, 'tags').flatMap((x) => x.p.tagIds.map((id) => this.tags.get(id)!.slug))),
    };
  }
}
