import type { Database, IndexedProjectRow, IndexedTagRow, Kysely, ReadRouting } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { Applier } from './apply.ts';
import { applyCuratedTags, applyRows } from './contents.ts';
import { DetailCache } from './detail-cache.ts';
import { Held } from './held.ts';

const tag = (id: string): IndexedTagRow => ({ id, name: id, nameEn: null, slug: id });
const project = (id: string, tagIds: string[]): IndexedProjectRow => ({
  id,
  name: id,
  nameEn: null,
  slug: id,
  description: `The ${id} project.`,
  descriptionEn: null,
  status: 'ACTIVE',
  source: null,
  createdAt: 1,
  updatedAt: 1,
  tagIds,
  linkTypes: [],
  stars: null,
  downloads: null,
  kept: false,
});

// Nothing here reads a database: the own write below is applied from its rows.
const noDatabase = undefined as unknown as Kysely<Database>;
const reads = { wrote: () => {} } as unknown as ReadRouting;

describe('own writes applied after a tag merge (docs/curation.md#tags)', () => {
  it('an upsert that committed before the merge, applied after it, does not bring the merged tag back', async () => {
    const held = new Held(new DetailCache(1 << 20));
    const applier = new Applier(held, noDatabase, reads);
    // the model has project a with tag "old"
    applyRows(held, held.details, ['a'], [project('a', ['old'])], [tag('old'), tag('into')]);
    // Another process merges "old" into "into" (change 20 moves a); its feed is applied here
    // first: a re-read with "into", and "old" an alias that leaves the model.
    held.versions.set('a', 20);
    applyRows(held, held.details, ['a'], [project('a', ['into'])], []);
    applyCuratedTags(held, held.details, { tags: [{ ...tag('into'), aliases: ['old'] }], aliases: ['old'] });
    expect(held.index.tag('old')).toBeUndefined();

    // This process's upsert, committed just before the merge (changes 10 and 11), is applied now:
    // a is skipped (the model has change 20 of it), b (no tags) is put; the tags the upsert wrote
    // rows for, "old" among them, came with it.
    const writes: Parameters<Applier['applyOwn']>[0] = {
      xids: ['900'],
      changes: [
        { id: 10, projectId: 'a', intoProjectId: null, xid: '900' },
        { id: 11, projectId: 'b', intoProjectId: null, xid: '900' },
      ],
      projects: [project('a', ['old']), project('b', [])],
      tags: [tag('old')],
      tagIds: [],
      beyondProjects: false,
    };
    await applier.applyOwn(writes, true);

    expect(held.index.project('b')).toBeDefined();
    expect(held.index.project('a')?.tagIds).toEqual(['into']);
    // before: "old" was put back as a live tag (listed by GET /api/tags beside into's alias)
    expect(held.index.tag('old')).toBeUndefined();
    expect(held.index.tag('into')?.aliases).toEqual(['old']);
  });
});
