import { join } from 'node:path';
import type { ProjectInput } from '../packages/core/src/schemas/project.ts';
import { upsertInOrder } from '../packages/core/src/services/upsert.ts';
import { connect, migrateToLatest } from '../packages/db/src/index.ts';
import { newProject } from './data.ts';
import { createDatabase, ROOT, startChild } from './processes.ts';

// A tag merge of PROJECTS projects on PostgreSQL (docs/curation.md#tags): the time of
// POST /api/tags/{slug}/merge (one transaction), and searches (GET /api/projects?q=…, 4 clients
// in a loop) meanwhile: their p50/p99 before the merge and during it, and whether any failed.
//   ADMIN_URL=postgres://postgres@127.0.0.1:5432/test pnpm exec tsx bench/tag-merge.ts [projects]

const adminUrl = process.env.ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const projects = Number(process.argv[2] ?? 10_000);
const apiKey = 'bench-tag-merge-key';
const CLIENTS = 4;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function main() {
  const database = await createDatabase(adminUrl, 'tagmerge');
  try {
    const handle = await connect(database.url, { poolSize: 4 });
    await migrateToLatest(handle.db);
    const seedStart = performance.now();
    for (let i = 0; i < projects; i += 500) {
      const batch: ProjectInput[] = [];
      for (let n = i; n < Math.min(projects, i + 500); n++) {
        const p = newProject('tm', n) as ProjectInput;
        // every tenth also has the target tag, after the merged one (the "both" path)
        const tags = [{ name: '合并前', nameEn: 'Before merge' }, { name: `分组${n % 20}` }];
        if (n % 10 === 0) tags.push({ name: '合并后', nameEn: 'After merge' });
        batch.push({ ...p, tags });
      }
      await handle.db
        .transaction()
        .execute((trx) => upsertInOrder(trx, batch, { via: 'upsert', actor: null }));
    }
    console.log(`seeded ${projects} projects in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    await handle.close();

    const server = await startChild(
      'tag-merge-server',
      join(ROOT, 'apps/server/src/main.ts'),
      {
        DATABASE_URL: database.url,
        WEBHOOK_API_KEY: apiKey,
        LOG_LEVEL: 'warn',
        TASK_REAP_INTERVAL_MS: '0',
      },
      { readyTimeoutSeconds: 300 },
    );
    try {
      const samples: { at: number; ms: number; ok: boolean }[] = [];
      let running = true;
      const queries = ['新项目', 'bench new', 'tm 12', 'xmu', '项目 tm'];
      const clients = Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = c; running; i++) {
          const q = queries[i % queries.length]!;
          const start = performance.now();
          const r = await fetch(`${server.url}/api/projects?q=${encodeURIComponent(q)}&limit=20&facets=tags`);
          await r.arrayBuffer();
          samples.push({ at: start, ms: performance.now() - start, ok: r.status === 200 });
        }
      });
      await new Promise((r) => setTimeout(r, 3000));
      const mergeStart = performance.now();
      const reply = await fetch(`${server.url}/api/tags/before-merge/merge`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ into: 'after-merge' }),
      });
      const body = (await reply.json()) as { projectsChanged?: number };
      const mergeEnd = performance.now();
      await new Promise((r) => setTimeout(r, 1000));
      running = false;
      await Promise.all(clients);
      const before = samples.filter((s) => s.at < mergeStart).map((s) => s.ms);
      const during = samples.filter((s) => s.at >= mergeStart && s.at < mergeEnd).map((s) => s.ms);
      const failed = samples.filter((s) => !s.ok).length;
      // when the slowest searches were sent (seconds into the merge) and how long they took
      const slowest = samples
        .filter((s) => s.at >= mergeStart && s.at < mergeEnd)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 10)
        .map((s) => `${((s.at - mergeStart) / 1000).toFixed(2)} s: ${s.ms.toFixed(0)} ms`);
      console.log(`slowest searches during the merge (sent at: took): ${slowest.join(', ')}`);
      console.log(
        `merge: HTTP ${reply.status}, ${body.projectsChanged} projects changed in ${((mergeEnd - mergeStart) / 1000).toFixed(2)} s`,
      );
      console.log(
        `search before: ${before.length} requests, p50 ${percentile(before, 50).toFixed(1)} ms, p99 ${percentile(before, 99).toFixed(1)} ms`,
      );
      console.log(
        `search during: ${during.length} requests, p50 ${percentile(during, 50).toFixed(1)} ms, p99 ${percentile(during, 99).toFixed(1)} ms; failed (non-200) overall: ${failed}`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

await main();
