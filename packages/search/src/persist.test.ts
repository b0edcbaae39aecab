import { describe, expect, it } from 'vitest';
import { readState, writeState } from './persist.ts';
import { BASE_QUERY, SAMPLE, toIndexed } from './sample.test-support.ts';
import { SearchIndex } from './search-index.ts';
import { snapshotFingerprint } from './snapshot-probe.ts';
import type { FacetName, ProjectQuery } from './types.ts';

/** An index written and read back into a fresh one (persist.ts). */
function roundTrip(index: SearchIndex): SearchIndex {
  const chunks: Buffer[] = [];
  for (const _ of writeState((b) => chunks.push(Buffer.from(b)), index));
  const bytes = Buffer.concat(chunks);
  let at = 0;
  const loaded = new SearchIndex();
  readState((into) => {
    if (at + into.byteLength > bytes.byteLength) throw new Error('truncated');
    into.set(bytes.subarray(at, at + into.byteLength));
    at += into.byteLength;
  }, loaded);
  expect(at).toBe(bytes.byteLength);
  return loaded;
}

const QUERIES: ProjectQuery[] = [
  ...['模型', 'model', 'tyqw', 'modle', 'open source', 'ai', '开源 模型', 'l'].map((q) => ({
    ...BASE_QUERY,
    q,
    limit: 10,
    facets: ['tags', 'status', 'linkTypes'] as FacetName[],
  })),
  { ...BASE_QUERY, sort: 'name', order: 'asc', limit: 10 },
  { ...BASE_QUERY, sort: 'updated', limit: 10, facets: ['tags'] },
];
const answers = (index: SearchIndex, queries = QUERIES) =>
  JSON.stringify(queries.map((q) => index.findProjects(q)));
/** Every project's related projects (related.ts: tags, link owners, words). */
const related = (index: SearchIndex, ids: string[]) =>
  JSON.stringify(ids.map((id) => index.findRelated(id, 20)));

describe('the engine’s state written and read back (persist.ts)', () => {
  it('answers every query as the index it was written from, and after the same writes', () => {
    const { projects, tags } = toIndexed(SAMPLE);
    const built = new SearchIndex();
    built.putTags(tags);
    built.put(projects);
    built.setSynonyms([['大模型', 'LLM']]);
    answers(built);
    const loaded = roundTrip(built);
    expect(answers(loaded)).toBe(answers(built));
    const ids = projects.map((p) => p.id);
    expect(related(loaded, ids)).toBe(related(built, ids));
    expect(related(built, ids)).toContain('"owner":"github.com/');

    const [first, second] = projects;
    const changed = [
      {
        ...first!,
        name: `${first!.name} 新版`,
        description: 'aardvark kiwifruit',
        updatedAt: first!.updatedAt + 1,
      },
      { ...second!, id: 'zz-new', slug: 'zz-new', name: 'Quokka Notes' },
    ];
    for (const index of [built, loaded]) {
      index.put(changed);
      index.remove([projects[5]!.id]);
    }
    const later = ['aa', 'kiwi', 'quokka', 'qu', 'aardvrak', '新版'].map((q) => ({ ...BASE_QUERY, q }));
    expect(answers(loaded, [...QUERIES, ...later])).toBe(answers(built, [...QUERIES, ...later]));
    expect(related(loaded, [...ids, 'zz-new'])).toBe(related(built, [...ids, 'zz-new']));
  });

  it('refuses a state of another layout', () => {
    const chunks: Buffer[] = [];
    for (const _ of writeState((b) => chunks.push(Buffer.from(b)), { a: 1, b: [1, 2] }));
    const bytes = Buffer.concat(chunks);
    let at = 0;
    const read = (into: Uint8Array) => {
      into.set(bytes.subarray(at, at + into.byteLength));
      at += into.byteLength;
    };
    expect(() => readState(read, new SearchIndex())).toThrow(/^snapshot: /);
  });

  it('has a fingerprint: the probe index round-trips', () => {
    const result = snapshotFingerprint();
    expect(result).toHaveProperty('fingerprint');
  });
});
