import type { StoreState as Store } from './store-state.ts';
import { nameSortKey, pinyinSyllables, tokens } from './text.ts';
import type { IndexedTag } from './types.ts';

/*
 * The store's tags and synonyms writes (store.ts's putTags, removeTags and setSynonyms): a
 * tag's texts as queries match them (tagText, tagSearch), its slug and name sort key; a removed
 * tag leaves every project; synonym sets by each term's tokens.
 */

export function putTags(st: Store, tags: IndexedTag[]): void {
  st.tagChanges++;
  for (const t of tags) {
    let num = st.tagOf.get(t.id);
    const old = num === undefined ? undefined : st.tags[num];
    if (num === undefined) {
      num = st.tags.length;
      st.tagOf.set(t.id, num);
      st.tagCount[num] = 0;
    }
    for (const slug of [old?.slug, ...(old?.aliases ?? [])])
      if (slug !== undefined && st.tagBySlug.get(slug) === num) st.tagBySlug.delete(slug);
    // the slugs of the tags merged into it filter as it; without `aliases` (a write's own row),
    // the tag keeps those it had
    const given = t.aliases === undefined ? old?.aliases : t.aliases;
    const aliases = given && given.length > 0 ? [...given] : undefined;
    st.tags[num] = { id: t.id, name: t.name, nameEn: t.nameEn, slug: t.slug, ...(aliases && { aliases }) };
    for (const slug of aliases ?? []) st.tagBySlug.set(slug, num);
    st.tagBySlug.set(t.slug, num);
    const text = [...tokens(t.name), ...tokens(t.nameEn)];
    st.tagTokens[num] = text;
    st.tagText[num] = ` ${text.join(' ')} `;
    const syllables = pinyinSyllables(t.name);
    const full = syllables.join('');
    const search = [
      ...text,
      ...tokens(t.slug),
      ...syllables,
      ...(full ? [full, syllables.map((s) => s[0]).join('')] : []),
    ];
    st.tagSearch[num] = ` ${search.join(' ')} `;
    st.tagNameKey[num] = nameSortKey(t.name);
    if (!old || old.name !== t.name || old.nameEn !== t.nameEn) st.tagVersion++;
  }
}

export function removeTags(st: Store, tagIds: string[]): void {
  st.tagChanges++;
  for (const id of tagIds) {
    const num = st.tagOf.get(id);
    if (num === undefined) continue;
    const docs: number[] = [];
    st.tagDocs.forEach(num, (d) => docs.push(d));
    for (const d of docs) {
      st.docTags.set(
        d,
        st.docTags.get(d).filter((x) => x !== num),
      );
      st.tagDocs.delete(num, d);
    }
    const t = st.tags[num]!;
    for (const slug of [t.slug, ...(t.aliases ?? [])])
      if (st.tagBySlug.get(slug) === num) st.tagBySlug.delete(slug);
    st.tagOf.delete(id);
    st.tags[num] = undefined;
    st.tagCount[num] = 0;
    st.tagVersion++;
  }
}

export function setSynonyms(st: Store, sets: string[][]): void {
  st.synonymOf = new Map();
  st.synonymSets = [];
  st.synonymTokenCounts = [];
  for (const set of sets) {
    const terms = set.map((s) => tokens(s)).filter((t) => t.length > 0);
    const unique = [...new Map(terms.map((t) => [t.join(' '), t])).values()];
    if (unique.length < 2) continue;
    const at = st.synonymSets.length;
    st.synonymSets.push(unique);
    for (const t of unique) {
      st.synonymOf.set(t.join(' '), at);
      if (!st.synonymTokenCounts.includes(t.length)) st.synonymTokenCounts.push(t.length);
    }
  }
  st.synonymTokenCounts.sort((a, b) => b - a);
}
