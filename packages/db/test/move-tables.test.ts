import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type DatabaseHandle } from '../src/connect.ts';
import { migrateToLatest } from '../src/migrate.ts';
import { baseTables } from '../src/move/compare.ts';
import { moveDatabase } from '../src/move/move.ts';
import { MoveRefused } from '../src/move/report.ts';
import { KEPT_TABLES, MOVED_TABLES, unknownTables } from '../src/move/tables.ts';

// The mover's list of tables (docs/operating.md#moving-to-postgresql) against the tables the
// migrations leave, read from information_schema: a migration that adds a table fails here until
// the mover knows it. Then its refusals, which need a PostgreSQL target. The move itself is
// apps/server/test/move.test.ts.

const POSTGRES_URL = process.env.TEST_DATABASE_URL;

describe('the tables a move copies', () => {
  it('are every table the migrations leave, each named once, each after the tables its foreign keys name', async () => {
    const handle = await connect('memory:');
    try {
      await migrateToLatest(handle.db);
      const present = await baseTables(handle.db);
      expect(unknownTables(present)).toEqual([]);
      const listed = [...MOVED_TABLES.map((t) => t.name), ...Object.keys(KEPT_TABLES)];
      expect(new Set(listed).size).toBe(listed.length);
      expect([...listed].sort()).toEqual(present);
      const { rows } = await sql<{ from: string; to: string }>`
        select conrelid::regclass::text as from, confrelid::regclass::text as to
        from pg_constraint where contype = 'f' and connamespace = current_schema()::regnamespace
      `.execute(handle.db);
      expect(rows.length).toBeGreaterThan(0);
      const order = MOVED_TABLES.map((t) => t.name);
      for (const { from, to } of rows) {
        if (from === to) expect(MOVED_TABLES.find((t) => t.name === from)?.selfReference, from).toBe(true);
        else expect(order.indexOf(from), `${from} → ${to}`).toBeGreaterThan(order.indexOf(to));
      }
    } finally {
      await handle.close();
    }
  });
});

describe.skipIf(!POSTGRES_URL)(
  `what a move refuses${POSTGRES_URL ? '' : ' (skipped: TEST_DATABASE_URL is not set: a move goes into PostgreSQL)'}`,
  () => {
    const made: string[] = [];
    const admin = async (text: string) => {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(text).finally(() => c.end());
    };
    afterAll(async () => {
      for (const name of made) await admin(`drop database if exists ${name} with (force)`);
    });
    const freshTarget = async (): Promise<DatabaseHandle> => {
      const name = `directory_test_${randomBytes(6).toString('hex')}`;
      await admin(`create database ${name}`);
      made.push(name);
      const url = new URL(POSTGRES_URL as string);
      url.pathname = `/${name}`;
      return connect(url.toString(), { poolSize: 1 });
    };

    it('a source with a table it does not know, making nothing in the target', async () => {
      const [source, target] = [await connect('memory:'), await freshTarget()];
      try {
        await migrateToLatest(source.db);
        await sql`create table added_later (id int primary key)`.execute(source.db);
        const moving = moveDatabase(source, target);
        await expect(moving).rejects.toThrow(MoveRefused);
        await expect(moving).rejects.toThrow(
          /tables the mover does not know: added_later\. Add them to packages\/db\/src\/move\/tables\.ts/,
        );
        expect(await baseTables(target.db)).toEqual([]);
      } finally {
        await source.close();
        await target.close();
      }
    });

    it('a target holding data, naming it and changing nothing there; the rows of a fresh migration are no data', async () => {
      const [source, target] = [await connect('memory:'), await freshTarget()];
      try {
        await migrateToLatest(source.db);
        await migrateToLatest(target.db);
        await sql`insert into server_secrets (name, value) values ('cursor', 'x')`.execute(target.db);
        await sql`update search_synonyms set sets = '[["a","b"]]'`.execute(target.db);
        await expect(moveDatabase(source, target)).rejects.toThrow(
          'The target is not empty: search_synonyms (1 row), server_secrets (1 row). Nothing was changed there',
        );
        const { rows } = await sql<{ sets: unknown }>`select sets from search_synonyms`.execute(target.db);
        expect(rows).toEqual([{ sets: [['a', 'b']] }]);
        await sql`delete from server_secrets`.execute(target.db);
        await sql`update search_synonyms set sets = '[]'`.execute(target.db);
        await sql`insert into projects (id, name, slug, description, status) values ('p1', 'P', 'p', 'a project', 'ACTIVE')`.execute(
          source.db,
        );
        const report = await moveDatabase(source, target);
        expect(report.tables.find((t) => t.name === 'projects')?.rows).toBe(1);
      } finally {
        await source.close();
        await target.close();
      }
    });
  },
);
