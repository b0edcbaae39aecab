import { MAX_QUERY_TERMS, nameSortKey, pinyinSyllables, tokens } from '@directory/search';

/*
 * The search columns of the SQL search path that the read model replaced (migration
 * 2026_11_25_000720_read_model drops them). Kept for what still uses them: the backfills of
 * migrations 2026_11_23_000100_search and 2026_11_24_000500_tag_search (search-columns.ts),
 * the benchmark's seed, and the brute-force model of apps/server/test/search.test.ts.
 *
 * What it was: search columns, computed in TypeScript when a project or tag was written (and by
 * the search migration for rows written before it), so that PGlite and PostgreSQL search with one path.
 *
 * Why not the databases' own text search: neither has Chinese word segmentation, to_tsvector
 * keeps a run of Chinese as one token, pg_trgm makes no trigrams from CJK under the C locale
 * nor from patterns shorter than three characters, and PGlite has no pg_bigm or zhparser.
 *
 * How it works. Text is normalised (NFKD, marks stripped, lower case) and cut into tokens:
 * runs of CJK characters and runs of other letters/digits; everything else separates. A
 * project is matched against three haystacks (" tok tok … "): its name (name, nameEn, slug,
 * the name's pinyin syllables, full pinyin and initials), its tags (names and English names:
 * each tag's search_text, read at query time; the project's own search_tags copy is what the
 * tests' brute force compares with) and its description (description, descriptionEn). A
 * query is cut the same way into terms; a term
 * matches a haystack when
 *   - a CJK term (any length) is a substring of it;
 *   - a term of 3 or more letters/digits is a substring of it (so `tongyi` and `qianwen`
 *     find 通义千问's pinyin `tongyiqianwen`, `gpt` finds `chatgpt`);
 *   - a term of 1 or 2 letters/digits starts one of its tokens (word prefix: `ai` finds
 *     "AI agents" but not "brain", which would match nearly every row).
 * Every term must match one of the three haystacks. `strpos` on the haystacks is the exact
 * test; a GIN-indexed text[] of grams narrows the rows first: each CJK character and CJK
 * character pair, each trigram of a word, and `^x`/`^xy` for a word's first one and two
 * characters. Whatever a term matches contains the term's grams (a CJK term's pairs, a long
 * term's trigrams, a short term's `^` gram), so the index never loses a match.
 *
 * What is left out, and why: `content`/`contentEn` (up to 10,000 characters each) are not
 * searched. docs/search.md#how-matching-works lists the fields `q` matches (names, descriptions, tags,
 * pinyin, initials, slug); content is not among them, and its grams were most of the write cost of
 * an earlier attempt (upserts fell from ~5,200 to ~2,000 projects/s). The gram array holds
 * names, slug, pinyin, tags and descriptions only: a few hundred distinct grams a project.
 */

// The tokenizer is the search engine's (@directory/search), so that there is one.
export { MAX_QUERY_TERMS, nameSortKey, normalize, pinyinSyllables, tokens } from '@directory/search';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const isCjkToken = (t: string) => CJK.test(t);

const haystack = (toks: string[]) => (toks.length ? ` ${toks.join(' ')} ` : ' ');

function addGrams(grams: Set<string>, toks: string[]) {
  for (const t of toks) {
    const chars = [...t];
    if (isCjkToken(t)) {
      for (let i = 0; i < chars.length; i++) {
        grams.add(chars[i]!);
        if (i + 1 < chars.length) grams.add(chars[i]! + chars[i + 1]!);
      }
    } else {
      grams.add(`^${chars[0]}`);
      if (chars.length >= 2) grams.add(`^${chars[0]}${chars[1]}`);
      for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
    }
  }
}

export interface ProjectSearchSource {
  name: string;
  nameEn: string | null;
  slug: string;
  description: string;
  descriptionEn: string | null;
  tags: { name: string; nameEn: string | null }[];
}

export interface ProjectSearchColumns {
  search_name: string;
  /** The tags' text as written with the project; queries read the tags' own (TagSearchColumns.search_text). */
  search_tags: string;
  search_desc: string;
  /** name, nameEn, slug, pinyin, initials without spaces: the keys of exact and prefix matches. */
  search_keys: string[];
  search_grams: string[];
  name_sort: string;
}

const compact = (toks: string[]) => toks.join('');

/** search_keys holds exactly this many keys, by position: name, nameEn, slug, pinyin, initials ('' when none). */
export const KEY_COUNT = 5;

export function projectSearchColumns(p: ProjectSearchSource): ProjectSearchColumns {
  const syllables = pinyinSyllables(p.name);
  const full = syllables.join('');
  const initials = syllables.map((s) => s[0]).join('');
  const nameToks = tokens(p.name);
  const nameEnToks = tokens(p.nameEn);
  const slugToks = tokens(p.slug);
  const name = [...nameToks, ...nameEnToks, ...slugToks, ...syllables, ...(full ? [full, initials] : [])];
  const tags = p.tags.flatMap((t) => [...tokens(t.name), ...tokens(t.nameEn)]);
  const desc = [...tokens(p.description), ...tokens(p.descriptionEn)];
  const grams = new Set<string>();
  addGrams(grams, name);
  addGrams(grams, tags);
  addGrams(grams, desc);
  return {
    search_name: haystack(name),
    search_tags: haystack(tags),
    search_desc: haystack(desc),
    search_keys: [compact(nameToks), compact(nameEnToks), compact(slugToks), full, initials],
    search_grams: [...grams],
    name_sort: nameSortKey(p.name),
  };
}

export interface TagSearchColumns {
  /** What GET /api/tags?q= matches: names, slug, pinyin and initials. */
  search_name: string;
  /**
   * What a project's tag matches when searching projects: the tokens of the name and English
   * name, as a project's own tag haystack held them (the SQL search of that time read the tags
   * at query time, so a tag's English name given later reaches every project it tags).
   */
  search_text: string;
  name_sort: string;
}

export function tagSearchColumns(t: { name: string; nameEn: string | null; slug: string }): TagSearchColumns {
  const syllables = pinyinSyllables(t.name);
  const full = syllables.join('');
  const toks = [
    ...tokens(t.name),
    ...tokens(t.nameEn),
    ...tokens(t.slug),
    ...syllables,
    ...(full ? [full, syllables.map((s) => s[0]).join('')] : []),
  ];
  return {
    search_name: haystack(toks),
    search_text: haystack([...tokens(t.name), ...tokens(t.nameEn)]),
    name_sort: nameSortKey(t.name),
  };
}

export interface SearchQuery {
  /** The query without spaces or punctuation, compared with search_keys (exact, prefix). */
  whole: string;
  /** One strpos pattern per term. */
  patterns: string[];
  /** Per term (same order as patterns): the grams a project whose name or description holds it contains. */
  termGrams: string[][];
}

/** The grams every text holding a term contains: its CJK characters' pairs (or the one character), its trigrams, or `^t` for 1–2 letters. */
function gramsOfTerm(t: string): string[] {
  const chars = [...t];
  const grams: string[] = [];
  if (isCjkToken(t)) {
    if (chars.length === 1) grams.push(t);
    for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  } else if (chars.length <= 2) {
    grams.push(`^${t}`);
  } else {
    for (let i = 0; i + 3 <= chars.length; i++) grams.push(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return [...new Set(grams)];
}

/** A query cut into terms (at most MAX_QUERY_TERMS, the rest dropped); undefined when it has none. */
export function searchQuery(q: string): SearchQuery | undefined {
  const terms = [...new Set(tokens(q))].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return undefined;
  return {
    whole: compact(terms),
    // a 1–2 letter word matches the start of a token
    patterns: terms.map((t) => (!isCjkToken(t) && [...t].length <= 2 ? ` ${t}` : t)),
    termGrams: terms.map(gramsOfTerm),
  };
}
