import { select } from '../select.ts';
import { compareCodePoints } from '../text.ts';
import { type Bucket, bucketSet, type Ranking, type RankingRule, scoreOf } from './rule.ts';

/**
 * Sort, the last rule: the documents of a bucket (all of one score) one by one, by id (the
 * order's direction), from the cursor when the bucket has the cursor's score. The bucket's set
 * is made here, when a page reaches it. When it holds many documents the id order is walked
 * from the cursor, testing a bit each, and stops after what the page needs (about limit ×
 * directory ÷ bucket steps); when it holds few, the first are selected among them.
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
    const cursorId = r.after && r.after.score === s ? r.after.id : undefined;
    const ids = ix.ids;
    if ((need * ix.live) / count < count) {
      // walk the id order from the cursor
      const found: number[] = [];
      const visit = (d: number) => {
        if (set.has(d) && ix.updated[d]! <= asOf) found.push(d);
        return found.length < need;
      };
      if (desc) {
        const from =
          cursorId === undefined
            ? ix.byId.end()
            : ix.byId.seek((d) => compareCodePoints(ids[d]!, cursorId) < 0);
        ix.byId.backward(from, visit);
      } else {
        const from =
          cursorId === undefined
            ? ix.byId.start()
            : ix.byId.seek((d) => compareCodePoints(ids[d]!, cursorId) <= 0);
        ix.byId.forward(from, visit);
      }
      for (const doc of found) yield { parts: bucket.parts, doc };
      return;
    }
    const dir = desc ? -1 : 1;
    const cmp = (a: number, b: number) =>
      dir * (ix.idNum[a]! - ix.idNum[b]! || compareCodePoints(ids[a]!, ids[b]!));
    const ok = (d: number) =>
      ix.updated[d]! <= asOf && (cursorId === undefined || dir * compareCodePoints(ids[d]!, cursorId) > 0);
    const list = cx.docList(count);
    const n = set.toList(list);
    for (const doc of select(list, n, need, ok, cmp)) yield { parts: bucket.parts, doc };
  },
};
