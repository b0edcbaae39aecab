import type { RelatedScratch } from './caches.ts';
import { RELATED_LIMITS } from './limits.ts';
import type { Postings } from './postings.ts';
import { type RelatedHit, rareMax, weightOf, wordsOf, wordWeight } from './related-features.ts';
import { select } from './select.ts';
import type { Store } from './store.ts';
import { compareCodePoints } from './text.ts';

/*
 * Related projects (docs/search.md#related-projects): the projects that share the most weight
 * of a project's features — its tags, the owners of its links, its rarest words — found
 * through the engine's postings, never by reading another project's text.
 *
 * 1. The features: every tag, the first 4 owners, the 32 rarest words of the first 256
 *    (related-features.ts); each weighs its kind's weight times ln(1 + N / df), df being the
 *    engine's count of documents that hold it (tagCount, the owner's and the word's postings).
 * 2. Candidates: the features' postings are visited rarest first, adding each feature's
 *    weight to every document in them, for at most RELATED_LIMITS.visits postings in all.
 * 3. When every posting was visited the scores are exact: the best `limit` are the answer.
 *    Otherwise the best RELATED_LIMITS.rescored candidates so far are scored again against
 *    every feature (a binary search per feature), and the best `limit` of them are the answer.
 *
 * The work is bounded whatever the directory holds: 20,000 visits, then at most 500 × 46
 * membership tests, then a select of at most 20.
 */

/** The engine's state a related-projects query reads (the store's fields, never written here). */
export type RelatedReads = Pick<
  Store,
  | 'docOf'
  | 'projectAt'
  | 'ownersAt'
  | 'ids'
  | 'live'
  | 'end'
  | 'docTags'
  | 'tags'
  | 'tagDocs'
  | 'tagCount'
  | 'vocab'
  | 'latinName'
  | 'latinDesc'
  | 'cjkIds'
  | 'cjkName'
  | 'cjkDesc'
  | 'owners'
>;

type Kind = 'owner' | 'tag' | 'word';
const KIND_ORDER: Record<Kind, number> = { owner: 0, tag: 1, word: 2 };

interface Feature {
  kind: Kind;
  /** The tag's slug, the owner's name, the word. */
  label: string;
  /** Its place among the project's tags or owners (explanations keep that order). */
  order: number;
  df: number;
  weight: number;
  lists: [Postings, number][];
}

function has(f: Feature, d: number): boolean {
  for (const [postings, term] of f.lists) if (postings.has(term, d)) return true;
  return false;
}

/** A project's features that another project may share (df ≥ 2), rarest first. */
function featuresOf(index: RelatedReads, d: number): Feature[] {
  const p = index.projectAt(d)!;
  const live = index.live;
  const out: Feature[] = [];
  index.docTags.get(d).forEach((t, order) => {
    const tag = index.tags[t];
    const df = index.tagCount[t] ?? 0;
    if (tag && df >= 2)
      out.push({
        kind: 'tag',
        label: tag.slug,
        order,
        df,
        weight: weightOf('tag', live, df),
        lists: [[index.tagDocs, t]],
      });
  });
  index
    .ownersAt(d)
    .slice(0, RELATED_LIMITS.owners)
    .forEach((o, order) => {
      const id = index.owners.id(o.key);
      const df = id === undefined ? 0 : index.owners.docs.size(id);
      if (id !== undefined && df >= 2)
        out.push({
          kind: 'owner',
          label: o.name,
          order,
          df,
          weight: weightOf('owner', live, df),
          lists: [[index.owners.docs, id]],
        });
    });
  const max = rareMax(live);
  const words: Feature[] = [];
  for (const w of wordsOf(p)) {
    const term = w.kind === 'latin' ? index.vocab.id(w.text) : index.cjkIds.get(w.gram);
    if (term === undefined) continue;
    const lists: [Postings, number][] =
      w.kind === 'latin'
        ? [
            [index.latinName, term],
            [index.latinDesc, term],
          ]
        : [
            [index.cjkName, term],
            [index.cjkDesc, term],
          ];
    const df = lists[0]![0].size(term) + lists[1]![0].size(term);
    if (df >= 2 && df <= max)
      words.push({
        kind: 'word',
        label: w.text,
        order: 0,
        df,
        weight: weightOf(wordWeight(w), live, df),
        lists,
      });
  }
  words.sort(byRarity);
  out.push(...words.slice(0, RELATED_LIMITS.words));
  return out.sort(byRarity);
}

function byRarity(a: Feature, b: Feature): number {
  return a.df - b.df || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || compareCodePoints(a.label, b.label);
}

/**
 * The `limit` projects most like the project `id`, most alike first (ties by id), never
 * itself; undefined when the index does not have it.
 */
export function findRelated(
  index: RelatedReads,
  s: RelatedScratch,
  id: string,
  limit: number,
): RelatedHit[] | undefined {
  const source = index.docOf.get(id);
  if (source === undefined) return undefined;
  const features = featuresOf(index, source);
  s.fit(index.end);
  const { score, stamp, touched } = s;
  let n = 0;
  let visits = 0;
  let exact = true;
  gather: for (const f of features) {
    const mark = s.nextStamp();
    for (const [postings, term] of f.lists) {
      const { docs, n: len } = postings.view(term);
      for (let i = 0; i < len; i++) {
        if (visits === RELATED_LIMITS.visits) {
          exact = false;
          break gather;
        }
        visits++;
        const d = docs[i]!;
        if (stamp[d] === mark) continue;
        stamp[d] = mark;
        if (score[d] === 0) touched[n++] = d;
        score[d]! += f.weight;
      }
    }
  }
  try {
    const ids = index.ids;
    const cmp = (a: number, b: number) => score[b]! - score[a]! || compareCodePoints(ids[a]!, ids[b]!);
    const notSource = (d: number) => d !== source;
    let best: number[];
    if (exact) best = select(touched, n, limit, notSource, cmp);
    else {
      const kept = select(touched, n, RELATED_LIMITS.rescored, notSource, cmp);
      for (const d of kept) {
        let total = 0;
        for (const f of features) if (has(f, d)) total += f.weight;
        score[d] = total;
      }
      best = kept.sort(cmp).slice(0, limit);
    }
    return best.map((d) => explain(features, d, ids[d]!, score[d]!));
  } finally {
    for (let i = 0; i < n; i++) score[touched[i]!] = 0;
  }
}

/** Which of the features a related project shares. */
function explain(features: Feature[], d: number, id: string, total: number): RelatedHit {
  const tags: Feature[] = [];
  const owners: Feature[] = [];
  const words: string[] = [];
  for (const f of features) {
    if (!has(f, d)) continue;
    if (f.kind === 'tag') tags.push(f);
    else if (f.kind === 'owner') owners.push(f);
    else words.push(f.label);
  }
  const inOrder = (a: Feature, b: Feature) => a.order - b.order;
  return {
    id,
    score: total,
    tags: tags.sort(inOrder).map((f) => f.label),
    words,
    owner: owners.sort(inOrder)[0]?.label ?? null,
  };
}
