import { expect, it } from 'vitest';
import { project } from './helpers.ts';
import { type StandbyCluster, waitFor } from './standby-cluster.ts';

/**
 * Read your writes on a hot standby (docs/operating.md#read-your-writes): the process that wrote
 * serves its write, synonyms, a tag rename and a dismissal of duplicates at once, while the
 * standby's replay is paused behind them. Registered by standby.test.ts, on its cluster.
 */
export function readYourWrites(c: StandbyCluster): void {
  it('the writing process serves its write at once, even while the standby has not replayed it', async () => {
    const { standby, a, sql, reads, upsert, word } = c;
    // replay paused: the standby is behind every write below, yet within the lag limit
    // for a moment; each round starts with the process reading from the standby again
    for (let round = 0; round < 3; round++) {
      await waitFor('reads from the standby', async () =>
        (await reads(a)).from === 'standby 1' ? true : undefined,
      );
      await sql(standby, 'select pg_wal_replay_pause()');
      try {
        const w = word();
        const p = project({ nameEn: `Mine ${w}`, description: `First version of ${w}.` });
        const created = await upsert(a, [p]);
        expect(created.status, created.text).toBe(200);
        const slug = created.json.results[0].slug;
        for (let v = 2; v <= 4; v++) {
          const get = await a.call('GET', `/api/projects/${slug}`, { key: false });
          expect(get.status, get.text).toBe(200);
          const search = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
          expect(search.json.projects.map((x: any) => x.slug)).toContain(slug);
          const description = `Version ${v} of ${w}.`;
          const updated = await upsert(a, [{ ...p, description }]);
          expect(updated.json).toMatchObject({ updated: 1, failed: 0 });
          const again = await a.call('GET', `/api/projects/${slug}`, { key: false });
          expect(again.json.data.description).toBe(description);
          const history = await a.call('GET', `/api/projects/${slug}/revisions`, { key: false });
          expect(history.status, history.text).toBe(200);
          expect(history.json.revisions).toHaveLength(v);
        }
        const deleted = await a.call('DELETE', `/api/projects/${slug}`);
        expect(deleted.status, deleted.text).toBe(200);
        expect((await a.call('GET', `/api/projects/${slug}`, { key: false })).status).toBe(404);
      } finally {
        await sql(standby, 'select pg_wal_replay_resume()');
      }
    }
  }, 60_000);

  it('synonyms and a tag rename are read back by the process that wrote them while the standby has not replayed them (docs/operating.md#read-your-writes)', async () => {
    const { standby, a, sql, reads, upsert, word } = c;
    const [w, other] = [word(), word()];
    const tag = { name: `标签 ${w}`, nameEn: `Tag ${w}` };
    const created = await upsert(a, [
      project({ nameEn: `Tagged ${w}`, description: `About ${w}.`, tags: [tag] }),
    ]);
    expect(created.status, created.text).toBe(200);
    const slug = created.json.results[0].slug as string;
    const tagSlug = (await a.call('GET', `/api/projects/${slug}`, { key: false })).json.data.tags[0]
      .slug as string;
    await waitFor('reads from the standby', async () =>
      (await reads(a)).from === 'standby 1' ? true : undefined,
    );
    await waitFor('the standby has the project', async () =>
      (await sql(standby, 'select 1 from projects where slug = $1', [slug])).length === 1 ? true : undefined,
    );
    await sql(standby, 'select pg_wal_replay_pause()');
    try {
      const put = await a.call('PUT', '/api/search/synonyms', { body: { sets: [[w, other]] } });
      expect(put.status, put.text).toBe(200);
      // before: read on the standby, the old sets
      const got = await a.call('GET', '/api/search/synonyms', { key: false });
      expect(got.json.sets).toContainEqual([w, other]);
      const search = await a.call('GET', `/api/projects?q=${other}&limit=5`, { key: false });
      expect(search.json.projects.map((x: any) => x.slug)).toContain(slug);

      const renamed = await a.call('PATCH', `/api/tags/${tagSlug}`, { body: { nameEn: `Renamed ${w}` } });
      expect(renamed.status, renamed.text).toBe(200);
      // pages and the project itself, read again and again while the standby still has the old name
      for (let i = 0; i < 3; i++) {
        const page = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
        const item = page.json.projects.find((x: any) => x.slug === slug);
        expect(item?.tags[0].nameEn).toBe(`Renamed ${w}`);
        const one = await a.call('GET', `/api/projects/${slug}`, { key: false });
        expect(one.json.data.tags[0].nameEn).toBe(`Renamed ${w}`);
      }
    } finally {
      await sql(standby, 'select pg_wal_replay_resume()');
    }
    // and once the standby has caught up, still the new name
    await waitFor('the standby replayed the rename', async () =>
      (await sql(standby, 'select 1 from tags where name_en = $1', [`Renamed ${w}`])).length === 1
        ? true
        : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const page = await a.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
    expect(page.json.projects.find((x: any) => x.slug === slug)?.tags[0].nameEn).toBe(`Renamed ${w}`);
  }, 60_000);

  it('a dismissal of duplicates is read back by the process that wrote it while the standby has not replayed it', async () => {
    const { standby, a, b, sql, reads, upsert, word } = c;
    const w = word();
    // one name spelt two ways: a "name" group of duplicates, written by the other process
    // (so that process a has no write of its own the standby lacks before its dismissal)
    const created = await upsert(b, [
      project({ name: `Twin ${w}`, nameEn: `Twin ${w} one`, description: `One of ${w}.` }),
      project({ name: `twin-${w}`, nameEn: `Twin ${w} two`, description: `The other of ${w}.` }),
    ]);
    expect(created.status, created.text).toBe(200);
    const slugs = created.json.results.map((r: any) => r.slug as string).sort();
    const listed = async () => {
      const r = await a.call('GET', '/api/projects/duplicates?limit=100');
      expect(r.status, r.text).toBe(200);
      return r.json.groups.some((g: any) => g.projects.some((p: any) => p.slug === slugs[0]));
    };
    await waitFor('reads from the standby', async () =>
      (await reads(a)).from === 'standby 1' ? true : undefined,
    );
    await waitFor('the standby lists the pair', async () => ((await listed()) ? true : undefined));
    await sql(standby, 'select pg_wal_replay_pause()');
    try {
      const dismissed = await a.call('POST', '/api/projects/duplicates/dismiss', { body: { slugs } });
      expect(dismissed.status, dismissed.text).toBe(200);
      expect(await listed()).toBe(false);
      const pairs = await a.call('GET', '/api/projects/duplicates?dismissed=true&limit=100');
      expect(pairs.json.dismissals.map((d: any) => d.projects.map((p: any) => p.slug).sort())).toContainEqual(
        slugs,
      );
      const undone = await a.call('DELETE', '/api/projects/duplicates/dismiss', { body: { slugs } });
      expect(undone.status, undone.text).toBe(200);
      expect(await listed()).toBe(true);
    } finally {
      await sql(standby, 'select pg_wal_replay_resume()');
    }
  }, 60_000);
}
