import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect, migrateToLatest } from '@directory/db';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, createHttpServer } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import {
  type Client,
  client,
  freshPostgresDatabase,
  POSTGRES_URL,
  project,
  slugOf,
  uniqueUrl,
} from './helpers.ts';

const run = promisify(execFile);
const KEY = 'backup-test-key';

/** The app on DATABASE_URL `url`, listening on a free port, until close(). */
async function serve(url: string): Promise<Client & { close(): Promise<void> }> {
  const db = await connect(url, { poolSize: 3 });
  await migrateToLatest(db.db);
  const app = createApp({
    db: db.db,
    pool: db.pool,
    apiKey: KEY,
    logger: createLogger('silent'),
    bodyLimitBytes: 5 << 20,
  });
  const server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    ...client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, KEY),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

/** Some of everything: projects with tags and links, tasks in several states, one completed with a project. */
async function populate(c: Client): Promise<string[]> {
  const projects = [project(), project({ nameEn: undefined, name: '通义千问备份测试' }), project()];
  expect((await c.call('POST', '/api/webhook/projects', { body: { projects } })).json.created).toBe(3);
  const urls = [uniqueUrl('t'), uniqueUrl('t'), `https://zh.wikipedia.org/wiki/备份/${Date.now()}`];
  await c.call('POST', '/api/discovery/tasks', { body: { tasks: urls.map((sourceUrl) => ({ sourceUrl })) } });
  const { tasks } = (await c.call('GET', '/api/discovery/tasks?limit=100')).json;
  await c.call('PATCH', `/api/discovery/tasks/${tasks[0].id}`, { body: { status: 'IN_PROGRESS' } });
  await c.call('POST', `/api/discovery/tasks/${tasks[1].id}/complete`, {
    body: { explorationData: project() },
  });
  const ids = (
    await Promise.all(
      projects.map(
        async (p) =>
          (
            await c.call('POST', '/api/webhook/check-duplicates', {
              body: { projects: [{ codehostUrl: p.links[0]!.url }] },
            })
          ).json.results[0].projectId as string,
      ),
    )
  ).filter(Boolean);
  expect(ids).toHaveLength(3);
  return [slugOf(projects[0]!), slugOf(projects[2]!)];
}

/** Everything the API shows of the data, as JSON text. */
async function reads(c: Client, slugs: string[]): Promise<string> {
  const list = (await c.call('GET', '/api/discovery/tasks?limit=100')).json;
  const tasks = await Promise.all(
    list.tasks.map((t: { id: string }) => c.call('GET', `/api/discovery/tasks/${t.id}`)),
  );
  const projects = await Promise.all(slugs.map((slug) => c.call('GET', `/api/projects/${slug}`)));
  const completed = tasks.map((t) => t.json.task).find((t) => t.projectId);
  const linked =
    completed &&
    (await c.call('POST', '/api/webhook/check-duplicates', {
      body: { projects: [{ codehostUrl: completed.explorationData.links[0].url }] },
    }));
  return JSON.stringify({
    list,
    tasks: tasks.map((t) => t.json),
    projects: projects.map((p) => [p.status, p.json]),
    linked: linked?.json,
  });
}

describe('backups', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('embedded database: a copy of the stopped data directory (tar) restored into an empty one reads the same', async () => {
    const data = join(dir, 'data');
    const before = await serve(`pglite:${data}`);
    const slugs = await populate(before);
    const expected = await reads(before, slugs);
    await before.close();
    // the README's commands
    await run('sh', [
      '-c',
      `tar -czf "${dir}/backup.tgz" -C "${data}" . && mkdir "${dir}/restored" && tar -xzf "${dir}/backup.tgz" -C "${dir}/restored"`,
    ]);
    const after = await serve(`pglite:${join(dir, 'restored')}`);
    try {
      expect(await reads(after, slugs)).toBe(expected);
    } finally {
      await after.close();
    }
  });

  it.skipIf(!POSTGRES_URL)(
    'PostgreSQL: pg_dump -Fc restored with pg_restore into an empty database reads the same',
    async () => {
      const source = await freshPostgresDatabase();
      const target = await freshPostgresDatabase();
      try {
        const before = await serve(source.url);
        const slugs = await populate(before);
        const expected = await reads(before, slugs);
        await before.close();
        // the README's commands
        await run('pg_dump', ['--format=custom', '--no-owner', `--file=${dir}/directory.dump`, source.url]);
        await run('pg_restore', [
          '--no-owner',
          '--exit-on-error',
          `--dbname=${target.url}`,
          `${dir}/directory.dump`,
        ]);
        const after = await serve(target.url);
        try {
          expect(await reads(after, slugs)).toBe(expected);
        } finally {
          await after.close();
        }
      } finally {
        await source.drop();
        await target.drop();
      }
    },
  );
});
