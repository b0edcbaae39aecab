import { describe, expect, it } from 'vitest';
import { MAX_QUERY_TERMS, MAX_TYPO_TERMS, MAX_TYPO_WORDS, TOP_TAGS, TYPO_WALK_STEPS } from './limits.ts';
import { BASE_QUERY } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import type { IndexedProject, IndexedTag, ProjectQuery } from './types.ts';

/* Each bound of limits.ts, reached: what a query finds on either side of it. */

const project = (i: number, name: string, description = '', tagIds: string[] = []): IndexedProject => ({
  id: `p${String(i).padStart(5, '0')}`,
  name,
  nameEn: null,
  slug: `p${i}`,
  description,
  descriptionEn: null,
  status: 'ACTIVE',
  source: null,
  createdAt: 1000 + i,
  updatedAt: 1000 + i,
  tagIds,
  linkTypes: [],
});

const indexOf = (projects: IndexedProject[], tags: IndexedTag[] = []) => {
  const ix = new SearchIndex();
  ix.putTags(tags);
  ix.put(projects);
  ix.prepare();
  return ix;
};

const find = (ix: SearchIndex, q: Partial<ProjectQuery>) => ix.findProjects({ ...BASE_QUERY, ...q });

/** Four lower-case letters for n (distinct for n < 26⁴). */
const letters = (n: number) => {
  let s = '';
  for (let i = 0; i < 4; i++) {
    s += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  }
  return s;
};

/** n distinct tokens starting with `stem`, as the descriptions of projects numbered from `from`. */
const filler = (stem: string, n: number, from: number) => {
  const out: IndexedProject[] = [];
  for (let i = 0; i < n; i += 100) {
    const words = [];
    for (let j = i; j < Math.min(n, i + 100); j++) words.push(stem + letters(j));
    out.push(project(from + out.length, `filler ${from + out.length}`, words.join(' ')));
  }
  return out;
};

describe('the bounds of a query (limits.ts)', () => {
  it(`MAX_QUERY_TERMS: the words after the first ${MAX_QUERY_TERMS} are dropped`, () => {
    const words = Array.from({ length: MAX_QUERY_TERMS }, (_, i) => `word${letters(i)}`);
    const ix = indexOf([project(1, 'all the words', words.join(' '))]);
    expect(find(ix, { q: [...words, 'nowhere'].join(' '), typos: false }).total).toBe(1);
    expect(
      find(ix, { q: ['nowhere', ...words].join(' '), typos: false, matchingStrategy: 'all' }).total,
    ).toBe(0);
  });

  it(`MAX_TYPO_WORDS: typos for the first ${MAX_TYPO_WORDS} words that may have some`, () => {
    const words = ['harbor', 'lantern', 'meadow', 'pepper', 'walnut', 'crimson'];
    expect(words.length).toBeGreaterThan(MAX_TYPO_WORDS);
    const ix = indexOf([project(1, words.join(' '))]);
    const typo = (w: string) => `${w.slice(0, 3)}x${w.slice(4)}`;
    const within = words.map((w, i) => (i < MAX_TYPO_WORDS ? typo(w) : w));
    expect(find(ix, { q: within.join(' ') }).total).toBe(1);
    const past = words.map((w, i) => (i <= MAX_TYPO_WORDS ? typo(w) : w));
    expect(find(ix, { q: past.join(' ') }).total).toBe(0);
  });

  it(`MAX_TYPO_TERMS: at most ${MAX_TYPO_TERMS} typo tokens are read per word`, () => {
    // every token one substitution from the word, each in one project
    const word = 'abcdefgh';
    const projects: IndexedProject[] = [];
    for (let at = 0; at < word.length; at++)
      for (const c of 'abcdefghijklmnopqrstuvwxyz')
        if (c !== word[at])
          projects.push(project(projects.length, word.slice(0, at) + c + word.slice(at + 1)));
    expect(projects.length).toBeGreaterThan(MAX_TYPO_TERMS);
    const ix = indexOf(projects);
    const r = find(ix, { q: word, limit: 1 });
    expect(r.total).toBe(MAX_TYPO_TERMS);
    expect(r.hits[0]!.match!.typos).toBe(1);
  });

  describe(`TYPO_WALK_STEPS: a walk past ${TYPO_WALK_STEPS} steps falls back to the word's first letter, then to no typos`, () => {
    // nine letters: a typo of the first letter counts twice (typo.ts countedTypos), within two
    const word = 'abcdefghi';
    // a typo of the first letter is found only by the walk of the whole vocabulary
    const firstLetter = project(900_000, 'zbcdefghi');
    const sameLetter = project(900_001, 'abcdefgxi');
    const found = (fillers: IndexedProject[]) => {
      const ix = indexOf([firstLetter, sameLetter, ...fillers]);
      const hits = find(ix, { q: word }).hits.map((h) => h.id);
      return [hits.includes(firstLetter.id), hits.includes(sameLetter.id)];
    };

    it('within the budget: every typo', () => {
      // (fewer than MAX_TYPO_TERMS typo tokens, so that this bound does not decide)
      expect(found(filler('xbcdefghi', MAX_TYPO_TERMS - 10, 0))).toEqual([true, true]);
    });
    it('past it: the tokens of the first letter only', () => {
      expect(found(filler('xbcdefghi', TYPO_WALK_STEPS, 0))).toEqual([false, true]);
    });
    it('past it within the first letter too: none', () => {
      const fillers = [
        ...filler('xbcdefghi', TYPO_WALK_STEPS, 0),
        ...filler('abcdefgyi', TYPO_WALK_STEPS, 1000),
      ];
      expect(found(fillers)).toEqual([false, false]);
    });
  });

  it(`TOP_TAGS: a tags facet lists the ${TOP_TAGS} most frequent tags`, () => {
    const tags: IndexedTag[] = Array.from({ length: TOP_TAGS + 10 }, (_, i) => ({
      id: `t${i}`,
      name: `tag${letters(i)}`,
      nameEn: null,
      slug: `tag-${letters(i)}`,
    }));
    // tag i on i + 1 projects: the facet keeps the most frequent
    const projects: IndexedProject[] = [];
    for (let n = 0; n < tags.length + 1; n++)
      projects.push(
        project(
          n,
          `tagged ${n}`,
          '',
          tags.slice(Math.max(0, n - 1)).map((t) => t.id),
        ),
      );
    const ix = indexOf(projects, tags);
    for (const q of [undefined, 'tagged']) {
      const facet = find(ix, { ...(q && { q }), sort: q ? 'relevance' : 'updated', facets: ['tags'] }).facets!
        .tags!;
      expect(facet).toHaveLength(TOP_TAGS);
      expect(facet[0]!.slug).toBe(tags[tags.length - 1]!.slug);
      expect(facet[TOP_TAGS - 1]!.count).toBeGreaterThan(10);
    }
  });
});
