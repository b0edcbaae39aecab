import { ownersOf } from './owners.ts';
import { standingOf } from './rules/standing.ts';
import { KEYS, LINK_TYPES, NO_SOURCE, type StoreState as Store } from './store-state.ts';
import type { Terms } from './terms.ts';
import type { IndexedProject } from './types.ts';

/*
 * The store's per-document arrays (store.ts calls these): grown to the directory, and a
 * document's fields, keys and tags set from a put; and the index's estimate of its bytes.
 */

export function grow(st: Store, need: number) {
  if (need <= st.idNum.length) return;
  let n = st.idNum.length;
  while (n < need) n *= 2;
  const f64 = (a: Float64Array) => {
    const b = new Float64Array(n);
    b.set(a);
    return b;
  };
  const u8 = (a: Uint8Array) => {
    const b = new Uint8Array(n);
    b.set(a);
    return b;
  };
  st.idNum = f64(st.idNum);
  st.updated = f64(st.updated);
  st.created = f64(st.created);
  st.status = u8(st.status);
  st.linkMask = u8(st.linkMask);
  st.plain = u8(st.plain);
  const standing = new Uint32Array(n);
  standing.set(st.standing);
  st.standing = standing;
  const brevity = new Uint16Array(n);
  brevity.set(st.brevity);
  st.brevity = brevity;
  const keyAt = new Uint16Array(n * KEYS);
  keyAt.set(st.keyAt);
  st.keyAt = keyAt;
  const keyLen = new Uint16Array(n * KEYS);
  keyLen.set(st.keyLen);
  st.keyLen = keyLen;
  const s = new Int32Array(n);
  s.set(st.sourceOf);
  st.sourceOf = s;
}

/** Sets a document's fields; `old`: the project it held (a replace). */
export function setDoc(
  st: Store,
  d: number,
  p: IndexedProject,
  tagNums: number[],
  terms: Terms,
  old?: IndexedProject,
) {
  const owners = ownersOf(p.linkUrls);
  st.owners.set(d, st.ownersAt(d), owners);
  // the slug's entry leaves before the record changes (doc-table.ts); the project put last has it
  if (old && old.slug !== p.slug) st.bySlug.deleteDoc(old.slug, d);
  st.text.set(d, { ...p, owners: owners.map((o) => o.name) });
  st.bySlug.set(p.slug, d);
  st.status[d] = p.status === 'ARCHIVED' ? 2 : 1;
  let mask = 0;
  for (const t of p.linkTypes) mask |= 1 << LINK_TYPES.indexOf(t);
  st.linkMask[d] = mask;
  if (p.source === null) st.sourceOf[d] = NO_SOURCE;
  else {
    let s = st.sourceIds.get(p.source);
    if (s === undefined) {
      s = st.sourceIds.size;
      st.sourceIds.set(p.source, s);
      st.sourceNames[s] = p.source;
    }
    st.sourceOf[d] = s;
  }
  st.updated[d] = p.updatedAt;
  st.created[d] = p.createdAt;
  st.standing[d] = standingOf(p);
  st.plain[d] = terms.plain ? 1 : 0;
  st.brevity[d] = terms.brevity;
  st.nameKey[d] = terms.nameKey;
  st.keys[d] = terms.keys;
  for (let k = 0; k < KEYS; k++) {
    st.keyAt[d * KEYS + k] = terms.keyAt[k]!;
    st.keyLen[d * KEYS + k] = terms.keyLen[k]!;
  }
  const oldTags = st.docTags.get(d);
  const next = [...new Set(tagNums)];
  for (const t of oldTags) if (!next.includes(t)) st.tagDocs.delete(t, d);
  for (const t of next) if (!oldTags.includes(t)) st.tagDocs.add(t, d);
  st.docTags.set(d, next);
}

export function stats(st: Store): { projects: number; tags: number; bytes: number } {
  const n = st.idNum.length;
  let bytes = n * (8 * 3 + 4 + 4 + 3 + 2) + st.end * 8 * 3; // typed arrays, and the per-document slots of the plain arrays
  for (let d = 0; d < st.end; d++) {
    if (!st.isLive(d)) continue;
    bytes += 2 * (st.nameKey[d]!.length + st.keys[d]!.length) + 64 + 16;
  }
  bytes += st.text.bytes() + st.docOf.bytes() + st.bySlug.bytes();
  bytes += st.vocab.bytes();
  bytes += st.latinName.bytes() + st.latinDesc.bytes() + st.cjkName.bytes() + st.cjkDesc.bytes();
  bytes += st.tagDocs.bytes() + st.docTags.bytes() + st.owners.bytes();
  bytes += st.keyPrefix.bytes() + st.keyPrefixIds.size * 64;
  for (const b of [...st.statusBits, ...st.linkBits]) bytes += b.byteLength;
  bytes += st.cjkIds.size * 64;
  bytes +=
    st.byUpdated.bytes() + st.byRank.bytes() + st.byCreated.bytes() + st.byName.bytes() + st.byId.bytes();
  bytes += st.byKey.bytes();
  let tags = 0;
  for (const t of st.tags) if (t) tags++;
  bytes += tags * 400;
  return { projects: st.live, tags, bytes };
}
