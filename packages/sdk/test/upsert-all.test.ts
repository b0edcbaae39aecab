import { project, startServer, type TestServer, targets } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryClient,
  type DirectoryClient,
  DirectoryError,
  type ProjectInput,
  type UpsertProgress,
} from '../src/index.ts';

describe.each(targets)('projects.upsertAll on $name', (target) => {
  let s: TestServer;
  let client: DirectoryClient;
  beforeAll(async () => {
    s = await startServer(target);
    client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
  });
  afterAll(async () => {
    await s?.close();
  });

  const slugOf = (p: ProjectInput) => (p.nameEn ?? '').toLowerCase().replace(/\s+/g, '-');

  /** 250 projects: item 137 is invalid (refused by validation), item 205 lists a url twice (fails on the server). */
  function inputs(): ProjectInput[] {
    const items = Array.from({ length: 250 }, () => project() as ProjectInput);
    items[137] = { ...items[137]!, description: 'short' };
    const twice = items[205]!.links[0]!;
    items[205] = { ...items[205]!, links: [twice, { ...twice, type: 'WEBSITE' }] };
    return items;
  }

  async function* asAsync<T>(items: T[]): AsyncGenerator<T> {
    for (const item of items) yield item;
  }

  it('sends batches of 100, reporting progress; one bad item fails alone', async () => {
    const items = inputs();
    const progress: UpsertProgress[] = [];
    const totals = await client.projects.upsertAll(asAsync(items), { onBatch: (p) => void progress.push(p) });

    expect(
      progress.map(({ batch, items, processed, created, failed }) => ({
        batch,
        items,
        processed,
        created,
        failed,
      })),
    ).toEqual([
      { batch: 1, items: 100, processed: 100, created: 100, failed: 0 },
      { batch: 2, items: 100, processed: 200, created: 199, failed: 1 },
      { batch: 3, items: 50, processed: 250, created: 248, failed: 2 },
    ]);
    expect(progress[1]!.errors).toEqual([
      { index: 137, name: items[137]!.name, error: expect.stringMatching(/^description: Too small/) },
    ]);
    expect(progress[2]!.errors.map((e) => e.index)).toEqual([137, 205]);
    expect(progress[2]!.errors[1]!.error).toContain('is listed twice');
    expect(totals).toEqual({
      processed: 250,
      created: 248,
      updated: 0,
      failed: 2,
      errors: progress[2]!.errors,
      written: expect.any(Array),
      warnings: [],
    });
    // every stored item, with its slug, in input order
    expect(totals.written.map((w) => w.index)).toEqual(
      items.map((_, i) => i).filter((i) => i !== 137 && i !== 205),
    );
    expect(totals.written[0]).toMatchObject({ index: 0, action: 'created', slug: slugOf(items[0]!) });

    // the items around the bad one were stored, the bad ones were not
    for (const i of [0, 136, 138, 199, 249]) {
      expect((await client.projects.get({ slug: slugOf(items[i]!) })).data.name).toBe(items[i]!.name);
    }
    await expect(client.projects.get({ slug: slugOf(items[137]!) })).rejects.toMatchObject({ status: 404 });

    // a repeat converges: everything valid is now an update
    const again = await client.projects.upsertAll(items, { batchSize: 60 });
    expect(again).toMatchObject({ processed: 250, created: 0, updated: 248, failed: 2 });
  });

  it('reports every bad item of a batch, and a batch of only bad items', async () => {
    const items = [project(), project(), project()] as ProjectInput[];
    items[0] = { ...items[0]!, tags: [] };
    items[2] = { ...items[2]!, name: '', links: [] };
    const totals = await client.projects.upsertAll(items, { batchSize: 2 });
    expect(totals).toMatchObject({ processed: 3, created: 1, failed: 2 });
    expect(totals.errors.map((e) => e.index)).toEqual([0, 2]);
    expect(totals.errors[1]!.error).toMatch(/^name: .*; links: /);
  });

  it('fails an item that is not an object at all alone (a detail on the item itself)', async () => {
    // e.g. a null line from a hand-made file: the detail is `projects.1: Invalid input: …`
    const items = [project(), null, project()] as unknown as ProjectInput[];
    const totals = await client.projects.upsertAll(items);
    expect(totals).toMatchObject({ processed: 3, created: 2, failed: 1 });
    expect(totals.errors).toEqual([{ index: 1, name: '', error: expect.stringMatching(/^Invalid input/) }]);
  });

  it('throws a DirectoryError when a batch fails for another reason', async () => {
    const anonymous = createDirectoryClient({ baseUrl: s.baseUrl });
    const onBatch = () => {
      throw new Error('no batch should finish');
    };
    const err = await anonymous.projects.upsertAll([project() as ProjectInput], { onBatch }).catch((e) => e);
    expect(err).toBeInstanceOf(DirectoryError);
    expect(err).toMatchObject({ status: 401, error: 'Unauthorized' });
    await expect(client.projects.upsertAll([], { batchSize: 101 })).rejects.toThrow(RangeError);
  });

  it('reports the warnings of updates found by slug only whose links differ (docs/curation.md#updates-that-may-be-wrong)', async () => {
    const warning = "matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's";
    const a = project() as ProjectInput;
    const b = project() as ProjectInput;
    const elsewhere = {
      ...a,
      links: [{ type: 'CODEHOST' as const, url: `https://github.com/${slugOf(a)}/other` }],
    };
    const progress: UpsertProgress[] = [];
    const totals = await client.projects.upsertAll(
      [a, b, elsewhere, { ...b, description: 'b by its url again.' }],
      {
        batchSize: 2,
        onBatch: (p) => void progress.push(p),
      },
    );
    expect(totals.written.map((w) => [w.index, w.action, w.warnings])).toEqual([
      [0, 'created', undefined],
      [1, 'created', undefined],
      [2, 'updated', [warning]],
      [3, 'updated', undefined],
    ]);
    expect(totals.warnings).toEqual([
      { index: 2, id: totals.written[0]!.id, slug: slugOf(a), warnings: [warning] },
    ]);
    expect(progress.map((p) => p.warnings.length)).toEqual([0, 1]);
  });

  it('sends nothing for an empty input', async () => {
    let batches = 0;
    const totals = await client.projects.upsertAll([], { onBatch: () => void batches++ });
    expect(totals).toEqual({
      processed: 0,
      created: 0,
      updated: 0,
      failed: 0,
      errors: [],
      written: [],
      warnings: [],
    });
    expect(batches).toBe(0);
  });
});
