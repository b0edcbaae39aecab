import { describe, expect, it } from 'vitest';
import { RELATED_LIMITS } from './limits.ts';
import { ownerOf, ownersOf } from './owners.ts';
import {
  ownerFeatures,
  type RelatedHit,
  rareMax,
  weightOf,
  wordsOf,
  wordWeight,
} from './related-features.ts';
import { SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import { termsOf } from './terms.ts';
import { compareCodePoints } from './text.ts';
import type { IndexedProject, IndexedTag } from './types.ts';

/*
 * The related-projects scores of related.ts against a brute force that reads every project's
 * text: the same features (related-features.ts defines them), their document frequencies
 * counted project by project, every other project scored. On the sample data no bound is
 * reached, so the two must agree exactly, explanations included.
 */

function bruteRelated(projects: IndexedProject[], tags: IndexedTag[], src: IndexedProject, limit: number) {
  const live = projects.length;
  const terms = new Map(projects.map((p) => [p.id, termsOf(p)]));
  const owners = new Map(projects.map((p) => [p.id, ownersOf(p.linkUrls).map((o) => o.key)]));
  const slugOf = new Map(tags.map((t) => [t.id, t.slug]));
  type F = { kind: string; label: string; df: number; weight: number; holds: (p: IndexedProject) => boolean };
  const features: F[] = [];
  for (const t of new Set(src.tagIds)) {
    const holds = (p: IndexedProject) => p.tagIds.includes(t);
    const df = projects.filter(holds).length;
    if (df >= 2)
      features.push({ kind: 'tag', label: slugOf.get(t)!, df, weight: weightOf('tag', live, df), holds });
  }
  for (const o of ownerFeatures(src)) {
    const holds = (p: IndexedProject) => owners.get(p.id)!.includes(o.key);
    const df = projects.filter(holds).length;
    if (df >= 2)
      features.push({ kind: 'owner', label: o.name, df, weight: weightOf('owner', live, df), holds });
  }
  const words: F[] = [];
  for (const w of wordsOf(src)) {
    const inName = (p: IndexedProject) =>
      w.kind === 'latin'
        ? terms.get(p.id)!.latinName.includes(w.text)
        : terms.get(p.id)!.cjkName.includes(w.gram);
    const inDesc = (p: IndexedProject) =>
      w.kind === 'latin'
        ? terms.get(p.id)!.latinDesc.includes(w.text)
        : terms.get(p.id)!.cjkDesc.includes(w.gram);
    const df = projects.filter(inName).length + projects.filter(inDesc).length;
    if (df >= 2 && df <= rareMax(live))
      words.push({
        kind: 'word',
        label: w.text,
        df,
        weight: weightOf(wordWeight(w), live, df),
        holds: (p) => inName(p) || inDesc(p),
      });
  }
  words.sort((a, b) => a.df - b.df || compareCodePoints(a.label, b.label));
  features.push(...words.slice(0, RELATED_LIMITS.words));
  const scored = projects
    .filter((p) => p.id !== src.id)
    .map((p): RelatedHit => {
      const shared = features.filter((f) => f.holds(p));
      const tagsShared = shared.filter((f) => f.kind === 'tag').map((f) => f.label);
      const ownerShared = ownerFeatures(src).find((o) =>
        shared.some((f) => f.kind === 'owner' && f.label === o.name),
      );
      return {
        id: p.id,
        score: shared.reduce((sum, f) => sum + f.weight, 0),
        tags: src.tagIds.map((t) => slugOf.get(t)!).filter((slug) => tagsShared.includes(slug)),
        words: shared.filter((f) => f.kind === 'word').map((f) => f.label),
        owner: ownerShared?.name ?? null,
      };
    })
    .filter((h) => h.score > 0);
  scored.sort((a, b) => b.score - a.score || compareCodePoints(a.id, b.id));
  return scored.slice(0, limit);
}

function indexOf(projects: IndexedProject[], tags: IndexedTag[]) {
  const index = new SearchIndex();
  index.putTags(tags);
  index.put(projects);
  return index;
}

describe('related projects', () => {
  const { projects, tags } = toIndexed(SAMPLE);

  it('equals a brute force over the sample data, for every project and limit', () => {
    const index = indexOf(projects, tags);
    let nonEmpty = 0;
    for (const p of projects)
      for (const limit of [1, 6, 20]) {
        const got = index.findRelated(p.id, limit)!;
        expect(got).toEqual(bruteRelated(projects, tags, p, limit));
        if (got.length > 0) nonEmpty++;
      }
    // the sample's projects do relate: most have related projects, some through every kind
    expect(nonEmpty).toBeGreaterThan(projects.length * 2);
    const all = projects.flatMap((p) => index.findRelated(p.id, 20)!);
    expect(all.some((h) => h.owner !== null)).toBe(true);
    expect(all.some((h) => h.words.length > 0)).toBe(true);
    expect(all.some((h) => h.tags.length > 0)).toBe(true);
  });

  it('still equals it after updates and removals', () => {
    const index = indexOf(projects, tags);
    const changed = projects.map((p, i) =>
      i % 3 === 0
        ? {
            ...p,
            tagIds: p.tagIds.slice(1),
            linkUrls: [...(p.linkUrls ?? []), 'https://github.com/shared-owner/x'],
            updatedAt: p.updatedAt + 1,
          }
        : p,
    );
    index.put(changed.filter((_, i) => i % 3 === 0));
    const gone = changed.filter((_, i) => i % 7 === 1);
    index.remove(gone.map((p) => p.id));
    const kept = changed.filter((p) => !gone.includes(p));
    for (const p of kept) expect(index.findRelated(p.id, 20)).toEqual(bruteRelated(kept, tags, p, 20));
    for (const p of gone) expect(index.findRelated(p.id, 20)).toBeUndefined();
    const removed = new Set(gone.map((p) => p.id));
    for (const p of kept) for (const h of index.findRelated(p.id, 20)!) expect(removed.has(h.id)).toBe(false);
  });

  it('finds the best candidates when the visits run out (the rarest features are visited first)', () => {
    const tag: IndexedTag = { id: 't-common', name: '通用', nameEn: 'Common', slug: 'common' };
    const base = (i: number, extra: Partial<IndexedProject> = {}): IndexedProject => ({
      id: `p${String(i).padStart(6, '0')}`,
      name: `Project ${i}`,
      nameEn: null,
      slug: `project-${i}`,
      description: 'An ordinary project.',
      descriptionEn: null,
      status: 'ACTIVE',
      source: null,
      createdAt: 0,
      updatedAt: 0,
      tagIds: [tag.id],
      linkTypes: [],
      ...extra,
    });
    const n = RELATED_LIMITS.visits + 5_000;
    const many = Array.from({ length: n }, (_, i) => base(i));
    // the source and one far project share a rare word; every project shares the tag
    many[0] = base(0, { description: 'Uses the zyxwvut engine.' });
    many[n - 1] = base(n - 1, { description: 'Also zyxwvut.' });
    const index = indexOf(many, [tag]);
    const [first, second] = index.findRelated(many[0]!.id, 6)!;
    expect(first).toMatchObject({ id: many[n - 1]!.id, tags: ['common'], words: ['zyxwvut'], owner: null });
    expect(second).toMatchObject({ tags: ['common'], words: [] });
    expect(first!.score).toBeGreaterThan(second!.score);
  });

  it('reads GitHub and Hugging Face owners from link URLs', () => {
    expect(ownerOf('https://github.com/QwenLM/Qwen')).toEqual({
      key: 'github.com/qwenlm',
      name: 'github.com/QwenLM',
    });
    expect(ownerOf('https://www.github.com/orgs/openai/repositories')?.key).toBe('github.com/openai');
    expect(ownerOf('https://huggingface.co/datasets/bigcode/the-stack')?.key).toBe('huggingface.co/bigcode');
    expect(ownerOf('https://hf.co/Qwen')?.key).toBe('huggingface.co/qwen');
    expect(ownerOf('https://github.com/topics/llm')).toBeUndefined();
    expect(ownerOf('https://github.com/')).toBeUndefined();
    expect(ownerOf('https://example.com/QwenLM')).toBeUndefined();
    expect(ownerOf('not a url')).toBeUndefined();
  });
});
