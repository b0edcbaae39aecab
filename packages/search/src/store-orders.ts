import { setBit } from './bitmap.ts';
import { KEYS, type StoreState as Store } from './store-state.ts';

/*
 * The store's orders and counts (store.ts calls these; a query only reads them): a document
 * into and out of the sorted orders (only those whose key changed), the documents a batch put
 * left for one sort, and the maintained counts and bitmaps of statuses, link types and tags.
 */

/** Which orders a replaced document moves in (its sort key there changed). */
export interface Moved {
  updated: boolean;
  created: boolean;
  name: boolean;
  keys: boolean;
  /** Its place among a relevance page's ties (its names' length or its standing changed). */
  rank: boolean;
  /** Its place in `sort: 'standing'` (its standing, or updatedAt, the tie-break, changed). */
  standing: boolean;
}
export const ALL_MOVED: Moved = {
  updated: true,
  created: true,
  name: true,
  keys: true,
  rank: true,
  standing: true,
};

export function flushOrders(st: Store) {
  if (st.unordered.length === 0) return;
  if (st.unordered.length > st.live / 8) {
    const all: number[] = [];
    for (let d = 0; d < st.end; d++) if (st.isLive(d)) all.push(d);
    resetOrders(st, all);
  } else for (const d of st.unordered) order(st, d);
  st.unordered = [];
}

export function resetOrders(st: Store, all: number[]) {
  st.byUpdated.reset(all.slice());
  st.byCreated.reset(all.slice());
  st.byName.reset(all.slice());
  st.byStanding.reset(all.slice());
  const entries: number[] = [];
  for (const d of all) for (let e = d * KEYS; e < (d + 1) * KEYS; e++) if (st.keyLen[e]! > 0) entries.push(e);
  st.byKey.reset(entries);
  st.byRank.reset(all.slice());
  st.byId.reset(all);
}

export function order(st: Store, d: number, moved: Moved = ALL_MOVED) {
  if (moved === ALL_MOVED) st.byId.insert(d);
  if (moved.rank) st.byRank.insert(d);
  if (moved.keys) for (let e = d * KEYS; e < (d + 1) * KEYS; e++) if (st.keyLen[e]! > 0) st.byKey.insert(e);
  if (moved.updated) st.byUpdated.insert(d);
  if (moved.created) st.byCreated.insert(d);
  if (moved.name) st.byName.insert(d);
  if (moved.standing) st.byStanding.insert(d);
}

export function unorder(st: Store, d: number, moved: Moved = ALL_MOVED) {
  if (moved === ALL_MOVED) st.byId.remove(d);
  if (moved.rank) st.byRank.remove(d);
  if (moved.keys) for (let e = d * KEYS; e < (d + 1) * KEYS; e++) if (st.keyLen[e]! > 0) st.byKey.remove(e);
  if (moved.updated) st.byUpdated.remove(d);
  if (moved.created) st.byCreated.remove(d);
  if (moved.name) st.byName.remove(d);
  if (moved.standing) st.byStanding.remove(d);
}

export function count(st: Store, d: number) {
  const s = st.status[d]!;
  st.statusCount[s]!++;
  st.statusBits[s] = setBit(st.statusBits[s]!, d);
  const mask = st.linkMask[d]!;
  for (let i = 0; i < 4; i++)
    if (mask & (1 << i)) {
      st.linkCount[i]!++;
      st.linkBits[i] = setBit(st.linkBits[i]!, d);
    }
  for (const t of st.docTags.get(d)) st.tagCount[t]!++;
}

export function uncount(st: Store, d: number) {
  const s = st.status[d]!;
  st.statusCount[s]!--;
  clearBit(st.statusBits[s]!, d);
  const mask = st.linkMask[d]!;
  for (let i = 0; i < 4; i++)
    if (mask & (1 << i)) {
      st.linkCount[i]!--;
      clearBit(st.linkBits[i]!, d);
    }
  for (const t of st.docTags.get(d)) st.tagCount[t]!--;
}

function clearBit(bits: Uint32Array, d: number): void {
  if (d >>> 5 < bits.length) bits[d >>> 5]! &= ~(1 << (d & 31));
}
