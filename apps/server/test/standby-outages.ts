import { expect, it } from 'vitest';
import { project } from './helpers.ts';
import { MAX_LAG_MS, type StandbyCluster, sleep, waitFor } from './standby-cluster.ts';

/**
 * A standby or primary away, or behind (docs/operating.md#when-a-standby-lags-or-stops): the
 * standby stopped and started under read load, its replay paused past the lag limit, and the
 * primary restarted under read and write load. Registered by standby.test.ts, on its cluster.
 */
export function outages(c: StandbyCluster): void {
  it('the standby stopped and started under read load: every read answers 200', async () => {
    const { standby, a, b, reads, upsert } = c;
    const made = await upsert(
      a,
      Array.from({ length: 20 }, () => project()),
    );
    const slugs: string[] = made.json.results.map((r: any) => r.slug);
    let stop = false;
    const failures: string[] = [];
    let count = 0;
    const readers = [a, b].flatMap((s) =>
      [0, 1].map(async (n) => {
        while (!stop) {
          const slug = slugs[(count + n) % slugs.length];
          const path =
            count % 3 === 0
              ? `/api/projects/${slug}/revisions`
              : count % 3 === 1
                ? `/api/projects/${slug}`
                : `/api/projects?q=${encodeURIComponent('测试项目')}&limit=3`;
          const r = await s.call('GET', path, { key: false });
          count++;
          if (r.status !== 200) failures.push(`${path}: ${r.status} ${r.text}`);
        }
      }),
    );
    await sleep(300);
    await standby.stop('fast');
    await waitFor(
      'reads from the primary',
      async () => ((await reads(b)).from === 'primary' ? true : undefined),
      2_000,
    );
    await sleep(500);
    await standby.start();
    for (const s of [a, b])
      await waitFor('reads from the standby again', async () =>
        (await reads(s)).from === 'standby 1' ? true : undefined,
      );
    await sleep(300);
    stop = true;
    await Promise.all(readers);
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(50);
  }, 90_000);

  it('replay paused past the lag limit: reads move to the primary and back, the position never moves back', async () => {
    const { standby, a, b, sql, reads, upsert, word } = c;
    await waitFor('b on the standby', async () => ((await reads(b)).from === 'standby 1' ? true : undefined));
    const positions: number[] = [];
    await sql(standby, 'select pg_wal_replay_pause()');
    const pausedAt = Date.now();
    let stop = false;
    // writes keep coming: the standby falls behind
    const writer = (async () => {
      while (!stop) {
        expect((await upsert(a, [project()])).status).toBe(200);
        await sleep(50);
      }
    })();
    try {
      await waitFor(
        'b to read from the primary',
        async () => {
          const r = await reads(b);
          positions.push(r.position);
          return r.from === 'primary' ? true : undefined;
        },
        MAX_LAG_MS + 2_500,
      );
      expect(Date.now() - pausedAt).toBeLessThan(MAX_LAG_MS + 2_500);
      // the other process still finds new writes within 1 s
      for (let i = 0; i < 3; i++) {
        const w = word();
        const sent = Date.now();
        expect((await upsert(a, [project({ nameEn: `Paused ${w}` })])).status).toBe(200);
        await waitFor(
          `${w} in b`,
          async () => {
            const r = await b.call('GET', `/api/projects?q=${w}&limit=5`, { key: false });
            positions.push((await reads(b)).position);
            return r.json.projects.length > 0 ? true : undefined;
          },
          1_000,
        );
        expect(Date.now() - sent).toBeLessThan(1_000);
      }
    } finally {
      await sql(standby, 'select pg_wal_replay_resume()');
    }
    await waitFor('b back on the standby', async () => {
      const r = await reads(b);
      positions.push(r.position);
      return r.from === 'standby 1' ? true : undefined;
    });
    stop = true;
    await writer;
    for (let i = 1; i < positions.length; i++) expect(positions[i]).toBeGreaterThanOrEqual(positions[i - 1]!);
  }, 60_000);

  it('the primary restarted under read and write load: reads 200, writes 200 or 503 with Retry-After, none lost', async () => {
    const { primary, a, b, sql, reads, upsert } = c;
    const seeded = await upsert(
      a,
      Array.from({ length: 20 }, () => project()),
    );
    const slugs: string[] = seeded.json.results.map((r: any) => r.slug);
    for (const s of [a, b])
      await waitFor('on the standby', async () => ((await reads(s)).from === 'standby 1' ? true : undefined));
    // b has seen them all
    await waitFor('b has the seeded projects', async () => {
      const r = await b.call('GET', `/api/projects/${slugs.at(-1)}`, { key: false });
      return r.status === 200 ? true : undefined;
    });
    let stop = false;
    let reads200 = 0;
    const readFailures: string[] = [];
    const writeOutcomes = new Map<string, number>();
    const acknowledged: string[] = [];
    const readers = [a, b].map(async (s, n) => {
      let i = n;
      while (!stop) {
        const path =
          i % 2 === 0
            ? `/api/projects/${slugs[i % slugs.length]}`
            : `/api/projects?q=${encodeURIComponent('测试项目')}&limit=3`;
        i++;
        const r = await s.call('GET', path, { key: false });
        if (r.status === 200) reads200++;
        else readFailures.push(`${path}: ${r.status} ${r.text}`);
      }
    });
    const writers = [a, b].map(async (s) => {
      while (!stop) {
        const p = project();
        const r = await s
          .call('POST', '/api/webhook/projects', { body: { projects: [p] } })
          .catch((err) => ({ status: 0, text: String(err), json: undefined, headers: new Headers() }));
        const outcome =
          r.status === 503 && r.headers.get('retry-after') ? '503+Retry-After' : String(r.status);
        writeOutcomes.set(outcome, (writeOutcomes.get(outcome) ?? 0) + 1);
        if (r.status === 200 && r.json?.created === 1) acknowledged.push(r.json.results[0].slug);
        else if (r.status === 503) await sleep(50);
        else if (r.status === 200) writeOutcomes.set(`200 ${r.text}`, 1);
      }
    });
    await sleep(500);
    await primary.stop('fast');
    await sleep(1_500);
    await primary.start();
    await waitFor('a write to succeed again', async () =>
      (writeOutcomes.get('200') ?? 0) > 0 && acknowledged.length > 0 ? true : undefined,
    );
    const before = acknowledged.length;
    await waitFor('more writes after the restart', async () =>
      acknowledged.length > before + 5 ? true : undefined,
    );
    stop = true;
    await Promise.all([...readers, ...writers]);
    expect(readFailures).toEqual([]);
    expect(reads200).toBeGreaterThan(20);
    // the primary was down for 1.5 s: writes were refused meanwhile, and only so
    expect([...writeOutcomes.keys()].sort()).toEqual(['200', '503+Retry-After']);
    const stored = await sql(primary, 'select slug from projects where slug = any($1::text[])', [
      acknowledged,
    ]);
    expect(stored.map((r) => r.slug).sort()).toEqual([...acknowledged].sort());
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  }, 90_000);
}
