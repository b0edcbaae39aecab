import { RANK_SPAN, rankOf } from '../ranking.ts';
import { select } from '../select.ts';
import { idNumber } from '../terms.ts';
import { compareCodePoints } from '../text.ts';
import { rankScore } from './rank-order.ts';
import { type Bucket, bucketSet, type Ranking, type RankingRule, scoreOf } from './rule.ts';

/**
 * Sort, the last rule: the documents of a bucket (all of one bucket score) one by one in the
 * order of coverage, then standing (rules/rank-order.ts), then id (the order's direction) — the store's byRank order —
 * from the cursor when the bucket has the cursor's bucket score. The bucket's set is made here,
 * when a page reaches it. When it holds many documents byRank is walked from the cursor, testing
 * a bit each, and stops after what the page needs (about limit × directory ÷ bucket steps); when
 * it holds few, the first are selected among them.
 */
export const sort: RankingRule = {
  name: 'sort',
  *buckets(r: Ranking, bucket: Bucket) {
    const { cx, desc, asOf } = r;
    const { ix } = cx;
    const set = bucketSet(r, bucket);
    if (set.empty) return;
    const count = set.count();
    const need = r.need();
    const s = scoreOf(bucket.parts[0]!);
    const ids = ix.ids;
    // the cursor, when it is in this bucket: its rank part and id
    const at =
      r.after && Math.floor(r.after.score / RANK_SPAN) === s
        ? { rank: rankOf(r.after.score), num: idNumber(r.after.id), id: r.after.id }
        : undefined;
    /** Where d is in byRank from the cursor: negative before it (a better rank, or the same and a higher id). */
    const fromCursor = (d: number) =>
      at!.rank - rankScore(ix, d) || at!.num - ix.idNum[d]! || compareCodePoints(at!.id, ids[d]!);
    if ((need * ix.live) / count < count) {
      // walk byRank from the cursor
      const found: number[] = [];
      if (desc) {
        const from = at ? ix.byRank.seek((d) => fromCursor(d) <= 0) : ix.byRank.start();
        const ok = asOf === Number.POSITIVE_INFINITY ? undefined : (d: number) => ix.updated[d]! <= asOf;
        ix.byRank.forwardIn(from, set.words, need, found, ok);
      } else {
        const visit = (d: number) => {
          if (set.has(d) && ix.updated[d]! <= asOf) found.push(d);
          return found.length < need;
        };
        const from = at ? ix.byRank.seek((d) => fromCursor(d) < 0) : ix.byRank.end();
        ix.byRank.backward(from, visit);
      }
      for (const doc of found) yield { parts: bucket.parts, doc };
      return;
    }
    const dir = desc ? 1 : -1;
    const cmp = (a: number, b: number) =>
      dir *
      (rankScore(ix, b) - rankScore(ix, a) ||
        ix.idNum[b]! - ix.idNum[a]! ||
        compareCodePoints(ids[b]!, ids[a]!));
    const ok = (d: number) =>
      ix.updated[d]! <= asOf && (at === undefined || (desc ? fromCursor(d) > 0 : fromCursor(d) < 0));
    const list = cx.docList(count);
    const n = set.toList(list);
    for (const doc of select(list, n, need, ok, cmp)) yield { parts: bucket.parts, doc };
  },
};
